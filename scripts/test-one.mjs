#!/usr/bin/env node
// npm run test:one -- <pattern> [file…]: runs the unit, scenario and CLI tests whose name matches
// <pattern> (node --test --test-name-pattern; a regular expression), or only those in the given
// test files (test/unit/x.test.ts or dist/test/unit/x.test.js). tsc runs first only when a
// TypeScript file or tsconfig.json is newer than the last build, so a fresh build starts the
// tests at once; then the bundle bin/ runs (scripts/bundle.mjs), when it is older than that build.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const BUILD_INFO = join(root, 'dist', '.tsbuildinfo');
const SOURCES = ['src', 'test', 'bench', 'scripts'];
const TEST_FOLDERS = ['dist/test/unit', 'dist/test/scenario', 'dist/test/cli'];

/** The newest modification time (ms) of the TypeScript files under `dir`. */
function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (/\.m?ts$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Whether the last build is older than a source file or the compiler options. */
function buildIsStale() {
  if (!existsSync(BUILD_INFO)) return true;
  const built = statSync(BUILD_INFO).mtimeMs;
  const newest = Math.max(
    statSync(join(root, 'tsconfig.json')).mtimeMs,
    ...SOURCES.filter((d) => existsSync(join(root, d))).map((d) => newestSource(join(root, d))),
  );
  return newest > built;
}

/** The compiled test file for a path given as source or as output. */
function compiledPath(file) {
  const rel = relative(root, join(process.cwd(), file));
  return rel.startsWith('dist/') ? rel : join('dist', rel.replace(/\.ts$/, '.js'));
}

const [pattern, ...files] = process.argv.slice(2);
if (!pattern) {
  process.stderr.write('usage: npm run test:one -- <test name pattern> [test file…]\n');
  process.exit(2);
}
if (buildIsStale()) {
  const tsc = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'],
    { cwd: root, stdio: 'inherit' },
  );
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  // tsc leaves its build info untouched when no output changed: mark the build fresh ourselves.
  const now = new Date();
  utimesSync(BUILD_INFO, now, now);
}
// bin/ runs the bundle only when it is newer than tsc's build (bin/launch.js); the CLI tests spawn bin/.
const BUNDLE = join(root, 'dist', 'bundle', 'ds-doctor.cjs');
if (!existsSync(BUNDLE) || statSync(BUNDLE).mtimeMs < statSync(BUILD_INFO).mtimeMs) {
  const bundle = spawnSync(process.execPath, [join(root, 'scripts', 'bundle.mjs')], { cwd: root, stdio: 'inherit' });
  if (bundle.status !== 0) process.exit(bundle.status ?? 1);
}
const targets = files.length > 0 ? files.map(compiledPath) : TEST_FOLDERS;
const run = spawnSync(process.execPath, ['--test', '--test-name-pattern', pattern, ...targets], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
