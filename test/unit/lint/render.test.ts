import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { lint } from '../../../src/lint/lint.js';
import { renderLint } from '../../../src/render/lint.js';
import { renderContext } from '../../../src/render/context.js';
import { bare, goodDaemonSet } from './rule-tester.js';

function report() {
  const ds = goodDaemonSet('relay', 'shop')
    .with((d) => {
      d.spec!.template!.spec!.containers![0]!.image = 'example/relay:latest';
      d.metadata!.annotations = { 'ds-doctor.io/ignore': 'readiness-probe-missing' };
    })
    .build();
  const snapshot = bare(ds);
  snapshot.origins.set(ds, { file: 'manifests/relay.yaml', line: 3 });
  return lint(snapshot, [ds]);
}

describe('lint rendering', () => {
  const plain = renderContext({ color: false, columns: 100 });

  it('table: the summary, then one line per finding under its DaemonSet and file, then what was turned off and not checked', () => {
    const text = renderLint(report(), plain, false);
    assert.match(text, /^1 finding \(0 errors, 1 warning, 0 info\) in 1 DaemonSet; -o wide shows paths and fixes\n\n/);
    assert.match(
      text,
      /\nshop\/relay {2}manifests\/relay\.yaml:3\n {2}! warning {2}image-tag-mutable {2}container relay uses example\/relay:latest \(latest is a moving tag\): /,
    );
    assert.match(text, /Turned off by annotation:\n {2}- shop\/relay: readiness-probe-missing\n/);
    assert.match(
      text,
      /Not checked:\n {2}- custom-taint-not-tolerated, max-unavailable-too-low, missing-os-selector: the input has no Node objects/,
    );
    assert.doesNotMatch(text, /fix:/);
  });

  it('--min-severity: findings below it are counted, not shown; the summary still counts every finding', () => {
    const hidden = renderLint(report(), plain, false, { minSeverity: 'error' });
    assert.match(
      hidden,
      /^1 finding \(0 errors, 1 warning, 0 info\) in 1 DaemonSet\n1 warning finding not shown \(--min-severity warning shows it\)\n/,
    );
    assert.doesNotMatch(hidden, /image-tag-mutable/);
    assert.match(renderLint(report(), plain, false, { minSeverity: 'warning' }), /image-tag-mutable/);
    assert.match(
      renderLint(report(), plain, true, { minSeverity: 'error' }),
      /^## DaemonSet lint\n\n1 warning finding not shown \(--min-severity warning shows it\)\.\n/,
    );
  });

  it('wide: the path and the fix with its YAML snippet', () => {
    const text = renderLint(report(), renderContext({ color: false, columns: 100, wide: true }), false);
    assert.match(
      text,
      / {6}at spec\.template\.spec\.containers\[0\]\.image\n {6}fix: pin a version or a digest:\n {8}image: example\/relay:<version>\n/,
    );
  });

  it('markdown: a table per DaemonSet and the fixes as YAML blocks', () => {
    const text = renderLint(report(), plain, true);
    assert.match(text, /### shop\/relay \(`manifests\/relay\.yaml:3`\)/);
    assert.match(
      text,
      /\| warning \| image-tag-mutable \| `spec\.template\.spec\.containers\[0\]\.image` \| container relay uses/,
    );
    assert.match(text, /```yaml\n {2}image: example\/relay:<version>\n {2}```/);
    assert.match(text, /#### Not checked/);
  });

  it('no findings', () => {
    const ds = goodDaemonSet().build();
    assert.match(renderLint(lint(bare(ds), [ds]), plain, false), /^no findings in 1 DaemonSet\n/);
  });
});
