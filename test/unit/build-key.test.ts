// scripts/build.mjs skips the build when the hash of what it is made from is the one recorded by the
// last finished build: the hash must change with every change a build would see (content, a file
// added, removed or renamed, the dependencies), and with nothing else (a touch, generated data).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The script is plain JavaScript beside the sources (dist/test/unit → the checkout's scripts/).
const script = new URL('../../../scripts/build.mjs', import.meta.url);
const { buildKey } = (await import(script.href)) as { buildKey: (base: string) => string };

/** A small checkout: the files the build reads, and some it must not. */
function checkout(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-doctor-build-key-'));
  const files: Record<string, string> = {
    'package.json': '{"name":"x"}\n',
    'tsconfig.json': '{}\n',
    'node_modules/.package-lock.json': '{"lockfileVersion":3}\n',
    'src/a.ts': 'export const a = 1;\n',
    'src/sub/b.ts': 'export const b = 2;\n',
    'src/render/html/page/tsconfig.json': '{"extends":"../../../../tsconfig.json"}\n',
    'scripts/bundle.mjs': '// bundle\n',
    'test/unit/a.test.ts': "import '../../src/a.js';\n",
    'bench/out/dump.yaml': 'kind: List\n',
    'test/fixture.yaml': 'kind: Node\n',
  };
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

const cases: { name: string; change: (dir: string) => void; changes: boolean }[] = [
  { name: 'nothing', change: () => {}, changes: false },
  {
    name: 'a source touched, its bytes the same',
    change: (d) => fs.utimesSync(path.join(d, 'src/a.ts'), new Date(2030, 0, 1), new Date(2030, 0, 1)),
    changes: false,
  },
  {
    name: 'generated data under bench/out',
    change: (d) => fs.writeFileSync(path.join(d, 'bench/out/dump.yaml'), 'x'),
    changes: false,
  },
  {
    name: 'a data file that is no source',
    change: (d) => fs.writeFileSync(path.join(d, 'test/fixture.yaml'), 'x'),
    changes: false,
  },
  {
    name: "a source's bytes",
    change: (d) => fs.appendFileSync(path.join(d, 'src/sub/b.ts'), '// more\n'),
    changes: true,
  },
  { name: 'a source added', change: (d) => fs.writeFileSync(path.join(d, 'src/c.ts'), ''), changes: true },
  { name: 'a source removed', change: (d) => fs.rmSync(path.join(d, 'test/unit/a.test.ts')), changes: true },
  {
    name: 'a source renamed',
    change: (d) => fs.renameSync(path.join(d, 'src/sub/b.ts'), path.join(d, 'src/sub/b2.ts')),
    changes: true,
  },
  { name: 'a build script', change: (d) => fs.appendFileSync(path.join(d, 'scripts/bundle.mjs'), '\n'), changes: true },
  {
    name: "the page's tsconfig",
    change: (d) => fs.writeFileSync(path.join(d, 'src/render/html/page/tsconfig.json'), '{}\n'),
    changes: true,
  },
  { name: 'tsconfig.json', change: (d) => fs.writeFileSync(path.join(d, 'tsconfig.json'), '{"x":1}\n'), changes: true },
  {
    name: 'the installed dependencies',
    change: (d) => fs.writeFileSync(path.join(d, 'node_modules/.package-lock.json'), '{"lockfileVersion":3,"x":1}\n'),
    changes: true,
  },
];

for (const c of cases) {
  test(`build key: ${c.name} ${c.changes ? 'changes' : 'keeps'} it`, () => {
    const dir = checkout();
    try {
      const before = buildKey(dir);
      c.change(dir);
      assert.equal(buildKey(dir) !== before, c.changes);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}
