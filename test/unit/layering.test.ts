/**
 * The local ESLint rules that enforce docs/design.md §1.3 (eslint-rules/layering.js): which
 * folder of src/ may import which, and no import cycle. Each case lints a small src/ tree written
 * to a temporary folder, through ESLint's Linter with the TypeScript parser, as `npm run lint` does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

interface LayeringModule {
  LAYERS: Record<string, string[]>;
  default: { rules: Record<string, unknown> };
}
const layering = (await import(pathToFileURL(path.join(ROOT, 'eslint-rules', 'layering.js')).href)) as LayeringModule;

/** Writes `files` (path under the tree → text) to a fresh folder and lints each file of src/. */
function lintTree(files: Record<string, string>): Map<string, string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'layering-'));
  try {
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      writeFileSync(path.join(dir, rel), text);
    }
    const linter = new Linter({ configType: 'flat', cwd: dir });
    const config = [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        plugins: { layering: layering.default as never },
        rules: { 'layering/allowed-imports': 'error', 'layering/no-cycle': 'error' },
      },
    ] as Linter.Config[];
    const out = new Map<string, string[]>();
    for (const rel of Object.keys(files).filter((f) => f.startsWith('src/'))) {
      const file = path.join(dir, rel);
      const messages = linter.verify(readFileSync(file, 'utf8'), config, file);
      out.set(
        rel,
        messages.map((m) => `${m.ruleId ?? 'parse'}: ${m.message.replaceAll(dir + path.sep, '')}`),
      );
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const CASES: { name: string; files: Record<string, string>; expect: Record<string, string[]> }[] = [
  {
    name: 'an import down the table is allowed',
    files: {
      'src/model/a.ts': 'export const a = 1;\n',
      'src/k8s/b.ts': "import { a } from '../model/a.js';\nexport const b = a;\n",
      'src/analyze/c.ts': "import { b } from '../k8s/b.js';\nexport const c = b;\n",
      'src/cli/d.ts': "import { c } from '../analyze/c.js';\nexport const d = c;\n",
    },
    expect: { 'src/model/a.ts': [], 'src/k8s/b.ts': [], 'src/analyze/c.ts': [], 'src/cli/d.ts': [] },
  },
  {
    name: 'an import up or across the table is refused, naming the row',
    files: {
      'src/render/r.ts': 'export const r = 1;\n',
      'src/analyze/a.ts': "import { r } from '../render/r.js';\nexport const a = r;\n",
    },
    expect: {
      'src/render/r.ts': [],
      'src/analyze/a.ts': [
        'layering/allowed-imports: src/analyze/ may not import src/render/ (docs/design.md §1.3: src/analyze/ may import src/k8s/, src/model/)',
      ],
    },
  },
  {
    name: 'model imports nothing',
    files: {
      'src/k8s/k.ts': 'export const k = 1;\n',
      'src/model/m.ts': "import { k } from '../k8s/k.js';\nexport const m = k;\n",
    },
    expect: {
      'src/k8s/k.ts': [],
      'src/model/m.ts': [
        'layering/allowed-imports: src/model/ may not import src/k8s/ (docs/design.md §1.3: src/model/ may import nothing)',
      ],
    },
  },
  {
    name: 'type-only and dynamic imports follow the table too',
    files: {
      'src/cli/c.ts': 'export type C = number;\nexport const c = 1;\n',
      'src/load/l.ts':
        "import type { C } from '../cli/c.js';\nexport const l: C = 1;\nexport const m = () => import('../cli/c.js');\n",
    },
    expect: {
      'src/cli/c.ts': [],
      'src/load/l.ts': [
        'layering/allowed-imports: src/load/ may not import src/cli/ (docs/design.md §1.3: src/load/ may import src/model/, src/k8s/, src/client/)',
        'layering/allowed-imports: src/load/ may not import src/cli/ (docs/design.md §1.3: src/load/ may import src/model/, src/k8s/, src/client/)',
      ],
    },
  },
  {
    name: 'the loader may use the API client, the client nothing but the model',
    files: {
      'src/model/m.ts': 'export const m = 1;\n',
      'src/k8s/k.ts': 'export const k = 1;\n',
      'src/client/c.ts':
        "import { m } from '../model/m.js';\nimport { k } from '../k8s/k.js';\nexport const c = () => m + k;\n",
      'src/load/l.ts': "import { c } from '../client/c.js';\nexport const l = c;\n",
    },
    expect: {
      'src/client/c.ts': [
        'layering/allowed-imports: src/client/ may not import src/k8s/ (docs/design.md §1.3: src/client/ may import src/model/)',
      ],
      'src/load/l.ts': [],
    },
  },
  {
    name: 'code under src/ imports nothing outside it but packages',
    files: {
      'test/helper.ts': 'export const h = 1;\n',
      'src/k8s/k.ts':
        "import { h } from '../../test/helper.js';\nimport path from 'node:path';\nexport const k = h + path.sep.length;\n",
    },
    expect: {
      'src/k8s/k.ts': [
        'layering/allowed-imports: src/k8s/ may not import test/helper.ts: code under src/ imports only src/ and packages',
      ],
    },
  },
  {
    name: 'a folder missing from the table is reported',
    files: { 'src/util/u.ts': 'export const u = 1;\n' },
    expect: {
      'src/util/u.ts': [
        'layering/allowed-imports: src/util is not a folder of the layering table in docs/design.md §1.3',
      ],
    },
  },
  {
    name: 'a cycle is reported on each import that closes it, naming the cycle',
    files: {
      'src/analyze/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
      'src/analyze/b.ts': "import { c } from './c.js';\nexport const b = () => c;\n",
      'src/analyze/c.ts': "import { a } from './a.js';\nexport const c = () => a;\n",
      'src/analyze/d.ts': "import { a } from './a.js';\nexport const d = a;\n",
    },
    expect: {
      'src/analyze/a.ts': [
        'layering/no-cycle: import cycle: src/analyze/a.ts → src/analyze/b.ts → src/analyze/c.ts → src/analyze/a.ts',
      ],
      'src/analyze/b.ts': [
        'layering/no-cycle: import cycle: src/analyze/b.ts → src/analyze/c.ts → src/analyze/a.ts → src/analyze/b.ts',
      ],
      'src/analyze/c.ts': [
        'layering/no-cycle: import cycle: src/analyze/c.ts → src/analyze/a.ts → src/analyze/b.ts → src/analyze/c.ts',
      ],
      'src/analyze/d.ts': [],
    },
  },
  {
    name: 'a cycle through a type-only import is not one: tsc erases it',
    files: {
      'src/analyze/a.ts': "import { b } from './b.js';\nexport type A = number;\nexport const a = () => b;\n",
      'src/analyze/b.ts': "import type { A } from './a.js';\nexport const b: A = 1;\n",
    },
    expect: { 'src/analyze/a.ts': [], 'src/analyze/b.ts': [] },
  },
];

for (const c of CASES) {
  test(`layering: ${c.name}`, () => {
    const got = lintTree(c.files);
    for (const [file, want] of Object.entries(c.expect)) assert.deepEqual(got.get(file), want, file);
  });
}

test('layering: the rule table is the table of docs/design.md §1.3', () => {
  const design = readFileSync(path.join(ROOT, 'docs', 'design.md'), 'utf8');
  const section = design.slice(design.indexOf('### §1.3'));
  const rows = new Map<string, string[]>();
  for (const m of section.matchAll(/^\| `(\w+)\/` \| ([^|]+) \|$/gm)) {
    const allowed = m[2]!.trim() === 'nothing' ? [] : [...m[2]!.matchAll(/`(\w+)\/`/g)].map((x) => x[1]!);
    rows.set(m[1]!, m[2]!.includes('every folder below') ? ['every folder below'] : allowed);
  }
  const below = Object.keys(layering.LAYERS).filter((f) => f !== 'cli');
  for (const [folder, allowed] of Object.entries(layering.LAYERS)) {
    const doc = rows.get(folder);
    assert.ok(doc, `docs/design.md §1.3 has no row for ${folder}/`);
    if (doc[0] === 'every folder below') assert.deepEqual([...allowed].sort(), [...below].sort(), folder);
    else assert.deepEqual([...allowed].sort(), [...doc].sort(), folder);
  }
  assert.deepEqual([...rows.keys()].sort(), Object.keys(layering.LAYERS).sort());
});
