// When the heap's growth is bounded (src/load/heap.ts): at the process' start, when the YAML
// named by -f (files, folders, a file redirected to stdin) exceeds BOUND_ABOVE, or when
// DS_DOCTOR_HEAP_BOUND=1; never for JSON, small YAML, a pipe, or DS_DOCTOR_HEAP_BOUND=0. The
// launcher (bin/launch.js) starts Node again with the flag; nothing sets a V8 flag at run time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, ftruncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BOUND_ABOVE, filenameArgs, GROWING_FLAG, heapFlags } from '../../src/load/heap.js';

/** A sparse file of `bytes` (no disk used). */
function sized(path: string, bytes: number): string {
  const fd = openSync(path, 'w');
  ftruncateSync(fd, bytes);
  closeSync(fd);
  return path;
}

const dir = mkdtempSync(join(tmpdir(), 'ds-heap-'));
const bigYaml = sized(join(dir, 'big.yaml'), BOUND_ABOVE + 1);
const edgeYaml = sized(join(dir, 'edge.yaml'), BOUND_ABOVE);
const bigJson = sized(join(dir, 'big.json'), BOUND_ABOVE * 2);
mkdirSync(join(dir, 'folder', 'sub'), { recursive: true });
sized(join(dir, 'folder', 'a.yml'), BOUND_ABOVE / 2);
sized(join(dir, 'folder', 'sub', 'b.YAML'), BOUND_ABOVE / 2 + 1);
sized(join(dir, 'folder', 'c.json'), BOUND_ABOVE * 2);
mkdirSync(join(dir, 'jsonfolder'));
sized(join(dir, 'jsonfolder', 'c.json'), BOUND_ABOVE * 2);
sized(join(dir, 'jsonfolder', 'd.yaml'), 10);

test('heap bound: -f spellings commander takes are the inputs sized', () => {
  assert.deepStrictEqual(
    filenameArgs(['scan', '-f', 'a', '--filename', 'b', '--filename=c', '-fd', '-A', '--', '-f', 'e']),
    ['a', 'b', 'c', 'd'],
  );
});

test('heap bound: by the YAML bytes named, over files and folders', () => {
  const cases: [string[], boolean][] = [
    [['scan', '-f', bigYaml], true],
    [['scan', '-f', edgeYaml], false],
    [['scan', '-f', bigJson], false],
    [['scan', '-f', edgeYaml, '-f', join(dir, 'folder', 'a.yml')], true],
    [['scan', '-f', join(dir, 'folder')], true],
    [['scan', '-f', join(dir, 'jsonfolder')], false],
    [['scan', '-f', join(dir, 'missing.yaml')], false],
    [['scan', '-A'], false],
  ];
  for (const [argv, bounded] of cases)
    assert.deepStrictEqual(heapFlags(argv, {}, []), bounded ? [GROWING_FLAG] : [], argv.join(' '));
});

test('heap bound: DS_DOCTOR_HEAP_BOUND forces it on or off; a process started with it is not started again', () => {
  assert.deepStrictEqual(heapFlags(['scan', '-f', '-'], { DS_DOCTOR_HEAP_BOUND: '1' }, []), [GROWING_FLAG]);
  assert.deepStrictEqual(heapFlags(['scan', '-f', bigYaml], { DS_DOCTOR_HEAP_BOUND: '0' }, []), []);
  assert.deepStrictEqual(heapFlags(['scan', '-f', bigYaml], {}, [GROWING_FLAG]), []);
});

/** Runs bin/ds-doctor.js with `args`; returns the execArgv each Node process of the run printed at exit. */
function execArgvOfRun(args: string[], env: Record<string, string>, stdin?: number): string[][] {
  const hook = join(dir, 'hook.cjs');
  writeFileSync(
    hook,
    "process.on('exit', () => process.stderr.write('EXECARGV ' + JSON.stringify(process.execArgv) + '\\n'));",
  );
  const r = spawnSync(process.execPath, ['--require', hook, 'bin/ds-doctor.js', ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    stdio: [stdin ?? 'ignore', 'pipe', 'pipe'],
  });
  return r.stderr
    .split('\n')
    .filter((l) => l.startsWith('EXECARGV '))
    .map((l) => JSON.parse(l.slice(9)) as string[]);
}

test('heap bound: the launcher starts Node again with the flag, and only then', () => {
  const bounded = execArgvOfRun(['--version'], { DS_DOCTOR_HEAP_BOUND: '1' });
  assert.equal(bounded.length, 2);
  assert.ok(bounded.some((a) => a.includes(GROWING_FLAG)));
  assert.deepStrictEqual(execArgvOfRun(['lint', '-f', 'fixtures/demo'], {}).length, 1);
  // A large file redirected to stdin is sized too (a pipe cannot be).
  const fd = openSync(bigYaml, 'r');
  try {
    const run = execArgvOfRun(['--version', '-f', '-'], {}, fd);
    assert.ok(run.some((a) => a.includes(GROWING_FLAG)));
  } finally {
    closeSync(fd);
  }
});
