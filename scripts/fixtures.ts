/**
 * `npm run fixtures`: regenerates every generated fixture (fixtures/demo, fixtures/cluster-info-dump,
 * fixtures/scenarios/*, fixtures/impact/*) in place. Hand-written files (READMEs of demo and
 * impact, goldens, expect.json) are left alone.
 *
 * `npm run fixtures:check` (`--check`): regenerates, then fails with one line naming every file
 * under fixtures/ that differs from the commit (changed, deleted or new): the generated files are
 * only ever changed through their generator.
 */
import { execFileSync } from 'node:child_process';
import { ROOT } from './lib/fixtures.js';

await import('./make-demo.js');
await import('./make-scenarios.js');
await import('./make-impact.js');
console.log('wrote fixtures/impact');

if (process.argv.includes('--check')) {
  const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all', '--', 'fixtures'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const changed = status
    .split('\n')
    .filter(Boolean)
    .map((line) => line.slice(3));
  if (changed.length) {
    console.error(
      `fixtures:check: regenerating changes ${changed.length} file(s) (run \`npm run fixtures\` and commit): ${changed.join(', ')}`,
    );
    process.exitCode = 1;
  } else {
    console.log('fixtures:check: the generated fixtures match the generators');
  }
}
