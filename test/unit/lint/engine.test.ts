import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { lint } from '../../../src/lint/lint.js';
import { RULES } from '../../../src/lint/registry.js';
import type { LintRule } from '../../../src/lint/types.js';
import { bare, cluster, goodDaemonSet } from './rule-tester.js';

describe('lint engine', () => {
  it('a bare manifest: cluster rules are reported as not checked, with the reason', () => {
    const report = lint(bare(goodDaemonSet().build()), [goodDaemonSet().build()]);
    assert.deepEqual(
      report.notChecked.map((n) => n.rule),
      ['custom-taint-not-tolerated', 'max-unavailable-too-low', 'missing-os-selector', 'pdb-missing'],
    );
    assert.ok(report.notChecked.every((n) => n.why.length > 10));
    assert.deepEqual(report.findings, []);
    assert.deepEqual(report.summary, { error: 0, warning: 0, info: 0 });
    assert.equal(report.apiVersion, 'ds-doctor/v1');
    assert.equal(report.kind, 'LintReport');
  });

  it('a good DaemonSet on a cluster: every rule checked, nothing found', () => {
    const ds = goodDaemonSet().build();
    const report = lint(cluster({ daemonSets: [ds], nodes: [] }), [ds]);
    // An empty node list still leaves the node rules without data.
    assert.deepEqual(
      report.notChecked.map((n) => n.rule),
      ['custom-taint-not-tolerated', 'max-unavailable-too-low', 'missing-os-selector'],
    );
    assert.deepEqual(report.findings, []);
  });

  it('ds-doctor.io/ignore turns rules off, counts what it hid, and names unknown ids', () => {
    const ds = goodDaemonSet('app', 'shop')
      .with((d) => {
        d.metadata!.annotations = { 'ds-doctor.io/ignore': 'image-tag-mutable, readiness-probe-missing,no-such-rule' };
        d.spec!.template!.spec!.containers![0]!.image = 'example/app:latest';
      })
      .build();
    const report = lint(bare(ds), [ds]);
    assert.deepEqual(report.findings, []);
    assert.deepEqual(report.suppressed, [
      {
        daemonSet: { namespace: 'shop', name: 'app' },
        rules: ['image-tag-mutable', 'readiness-probe-missing'],
        hiddenFindings: 1,
      },
    ]);
    assert.deepEqual(report.notes, [
      'shop/app: ds-doctor.io/ignore names unknown rule(s) no-such-rule: they turn nothing off',
    ]);
  });

  it('ignore-check.ds-doctor.io/<rule> carries a reason', () => {
    const ds = goodDaemonSet('agent', 'kube-system')
      .with((d) => {
        d.metadata!.annotations = { 'ignore-check.ds-doctor.io/privileged-container': 'loads a kernel module' };
        d.spec!.template!.spec!.containers![0]!.securityContext = {
          ...d.spec!.template!.spec!.containers![0]!.securityContext,
          privileged: true,
        };
        d.spec!.template!.spec!.priorityClassName = 'system-node-critical';
      })
      .build();
    const report = lint(bare(ds), [ds]);
    assert.deepEqual(report.findings, []);
    assert.deepEqual(report.suppressed[0]!.reasons, { 'privileged-container': 'loads a kernel module' });
    assert.equal(report.suppressed[0]!.hiddenFindings, 1);
  });

  it('sorts by DaemonSet, severity, rule and path, and carries the file and line', () => {
    const a = goodDaemonSet('a', 'ns')
      .with((d) => {
        d.spec!.template!.spec!.containers![0]!.image = 'x:latest';
        d.spec!.selector = {};
      })
      .container({ name: 'b', image: 'y' })
      .build();
    const z = goodDaemonSet('z', 'ns')
      .with((d) => {
        d.spec!.template!.spec!.containers![0]!.image = 'z:latest';
      })
      .build();
    const snapshot = bare(z, a);
    snapshot.origins.set(a, { file: 'manifests/a.yaml', line: 12 });
    const report = lint(snapshot, [z, a]);
    const rows = report.findings.map((f) => `${f.daemonSet.name} ${f.severity} ${f.rule} ${f.path}`);
    assert.deepEqual(
      rows,
      [...rows].sort((x, y) => {
        const key = (r: string) => {
          const [n, s, ...rest] = r.split(' ');
          return `${n} ${['error', 'warning', 'info'].indexOf(s!)} ${rest.join(' ')}`;
        };
        return key(x).localeCompare(key(y), 'en', { numeric: true });
      }),
    );
    assert.equal(rows[0], 'a error selector-template-mismatch spec.selector');
    assert.deepEqual(report.findings.find((f) => f.daemonSet.name === 'a')!.location, {
      file: 'manifests/a.yaml',
      line: 12,
    });
    assert.equal(report.findings.find((f) => f.daemonSet.name === 'z')!.location, undefined);
    assert.equal(report.summary!.error, 1);
    assert.equal(report.daemonSets, 2);
  });

  it('a rule that throws on a malformed manifest becomes a note, not a crash', () => {
    const boom: LintRule = {
      meta: { ...RULES[0]!.meta, id: 'boom' },
      check: () => {
        throw new TypeError('x.map is not a function');
      },
    };
    const ds = goodDaemonSet().build();
    const report = lint(bare(ds), [ds], [boom, ...RULES]);
    assert.deepEqual(report.notes, ['default/agent: rule boom could not check it: x.map is not a function']);
  });

  it('load warnings are passed on as notes', () => {
    const ds = goodDaemonSet().build();
    const snapshot = bare(ds);
    snapshot.warnings.push('ignored 2 object(s) of kinds ds-doctor does not use: ConfigMap (2)');
    assert.deepEqual(lint(snapshot, [ds]).notes, [
      'ignored 2 object(s) of kinds ds-doctor does not use: ConfigMap (2)',
    ]);
  });
});
