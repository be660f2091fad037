// Symbolic links under -f directories (issue 13, class 8). kubectl (k8s.io/cli-runtime
// pkg/resource/visitor.go#ExpandPathsToFileVisitors, filepath.Walk) reads a linked file and opens
// a dangling link by its name, but walks no linked directory; we walk them too, report a loop once
// and never skip a link silently.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadFiles } from '../../src/load/files.js';
import { InputError } from '../../src/model/errors.js';
import { runCli } from '../harness.js';

const noStdin = async () => '';

const node = (name: string) => `apiVersion: v1\nkind: Node\nmetadata:\n  name: ${name}\n`;

/** A temporary tree: `files` are written, `links` are [link path, target] made with symlink(2). */
async function tree(files: Record<string, string>, links: [string, string][]): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'ds-doctor-links-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(root, name, '..'), { recursive: true });
    await writeFile(join(root, name), text);
  }
  for (const [link, target] of links) {
    await mkdir(join(root, link, '..'), { recursive: true });
    await symlink(target, join(root, link));
  }
  return root;
}

const names = (s: { nodes: { metadata?: { name?: string } }[] }) => s.nodes.map((n) => n.metadata?.name).sort();

const READS: [string, Record<string, string>, [string, string][], string, string[]][] = [
  [
    'a linked file is read (as kubectl reads it)',
    { 'real/a.yaml': node('a') },
    [['in/b.yaml', '../real/a.yaml']],
    'in',
    ['a'],
  ],
  [
    'a link to a file outside the tree is read',
    { 'outside/x.yaml': node('x'), 'in/own.yaml': node('own') },
    [['in/x.yaml', '../outside/x.yaml']],
    'in',
    ['own', 'x'],
  ],
  [
    'a linked directory is walked (kubectl skips it silently)',
    { 'shared/n.yaml': node('n'), 'in/own.yaml': node('own') },
    [['in/shared', '../shared']],
    'in',
    ['n', 'own'],
  ],
  [
    'a -f path that is itself a link to a directory is walked',
    { 'real/n.yaml': node('n') },
    [['alias', 'real']],
    'alias',
    ['n'],
  ],
  [
    'a linked file without a data extension is skipped like a plain one',
    { 'in/a.yaml': node('a'), 'notes.txt': 'x' },
    [['in/notes', '../notes.txt']],
    'in',
    ['a'],
  ],
];

for (const [name, files, links, path, want] of READS) {
  test(`symlinks: ${name}`, async () => {
    const root = await tree(files, links);
    const s = await loadFiles([join(root, path)], noStdin);
    assert.deepEqual(names(s), want);
    assert.ok(!s.warnings.some((w) => w.includes('symbolic link')), s.warnings.join('; '));
  });
}

test('symlinks: a link back to a directory being read is a loop, reported once and not followed', async () => {
  const root = await tree({ 'in/a.yaml': node('a'), 'in/sub/b.yaml': node('b') }, [
    ['in/sub/up', '..'],
    ['in/self', '.'],
  ]);
  const s = await loadFiles([join(root, 'in')], noStdin);
  assert.deepEqual(names(s), ['a', 'b'], 'each file once');
  const loops = s.warnings.filter((w) => w.includes('symbolic link loop'));
  assert.equal(loops.length, 2, loops.join('\n'));
  assert.match(
    loops[0]!,
    /\/in\/self: symbolic link loop \(points back to .*\/in, which is being read\): not followed$/,
  );
  assert.match(loops[1]!, /\/in\/sub\/up: symbolic link loop/);
});

test('symlinks: two directories that link to each other are one loop, reported once', async () => {
  const root = await tree({ 'a/x.yaml': node('x'), 'b/y.yaml': node('y') }, [
    ['a/to-b', '../b'],
    ['b/to-a', '../a'],
  ]);
  const s = await loadFiles([join(root, 'a')], noStdin);
  assert.deepEqual(names(s), ['x', 'y']);
  assert.equal(s.warnings.filter((w) => w.includes('symbolic link loop')).length, 1, s.warnings.join('\n'));
});

const BROKEN: [string, [string, string][], string, RegExp][] = [
  [
    'a dangling link to a file',
    [['in/gone.yaml', '../nowhere.yaml']],
    'in',
    /\/in\/gone\.yaml: broken symbolic link to \.\.\/nowhere\.yaml$/,
  ],
  [
    'a dangling link without an extension (it may have been a directory)',
    [['in/gone', '../nowhere']],
    'in',
    /\/in\/gone: broken symbolic link to \.\.\/nowhere$/,
  ],
  [
    'links that point at each other',
    [
      ['in/p.yaml', 'q.yaml'],
      ['in/q.yaml', 'p.yaml'],
    ],
    'in',
    /\/in\/p\.yaml: broken symbolic link to q\.yaml \(a chain of links that never ends\)$/,
  ],
  [
    'a -f path that is a dangling link',
    [['alias.yaml', 'nowhere.yaml']],
    'alias.yaml',
    /\/alias\.yaml: broken symbolic link to nowhere\.yaml$/,
  ],
];

for (const [name, links, path, re] of BROKEN) {
  test(`symlinks: ${name} is an error naming it`, async () => {
    const root = await tree({ 'in/a.yaml': node('a') }, links);
    await assert.rejects(
      loadFiles([join(root, path)], noStdin),
      (err: unknown) => err instanceof InputError && re.test(err.message),
    );
  });
}

test('symlinks: the loop warning reaches the user once, in the notes', async () => {
  const root = await tree({ 'in/n.yaml': node('n'), 'in/p.yaml': 'apiVersion: v1\nkind: PodList\nitems: []\n' }, [
    ['in/again', '.'],
  ]);
  const r = await runCli(['scan', '-f', join(root, 'in')]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.split('symbolic link loop').length - 1, 1, r.stdout);
  assert.equal(r.stderr, '');
});
