// npm test runs the unit, scenario and CLI test files in a few Node processes, not one each: a
// file's own process spends most of its time loading the modules every test file shares (about
// 0.8 s of CPU per file, 121 files). Each group imports its files here, so their tests register in
// the group's process and run in file order, as `node --test` would run them one file at a time.
// Single files still run alone (`npm run test:one`, `node --test dist/test/unit/x.test.js`).
import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** dist/test: the folders below are relative to it. */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The test files (`*.test.js`) under `folder`, recursively, as paths relative to dist/test, in name order. */
export function testFiles(folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.test.js')) out.push(relative(ROOT, path));
    }
  };
  walk(join(ROOT, folder));
  return out;
}

/** Imports each file (relative to dist/test), in order: their tests register in this process. */
export async function importTests(files: string[]): Promise<void> {
  for (const file of files) await import(pathToFileURL(join(ROOT, file)).href);
}
