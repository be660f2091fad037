#!/usr/bin/env node
// npm run build: tsc, the report page (scripts/build-page.mjs), the build info
// (scripts/build-info.mjs) and the bundle (scripts/bundle.mjs), in that order, skipped when nothing
// they are made from changed since the last build that finished. That is what `npm test` and the
// README's second command meet after `npm ci` (whose `prepare` builds): the build they would
// repeat took about 8 s of a test run that should take a minute.
//
// What the build is made from is read by content, not by time: every TypeScript and script file
// under src/, test/, bench/ and scripts/ (paths and bytes, so a deleted or renamed file counts),
// the tsconfig files, package.json and the installed dependencies (node_modules/.package-lock.json).
// Its hash is written to dist/.build-key after a build that finished; a failed step writes none.
// The commit (dist/build-info.json) is compiled into the bundle, so a new commit alone runs the
// last two steps. `--force` runs every step.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gitCommit } from './build-info.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(root, 'dist');
/** Where the hash of the last finished build's inputs is kept. */
export const BUILD_KEY = join(DIST, '.build-key');
/** What each step leaves, all of which must be there for the build to be skipped. */
const OUTPUTS = [
  join(DIST, '.tsbuildinfo'),
  join(DIST, 'src', 'cli', 'run.js'),
  join(DIST, 'src', 'render', 'html', 'page-script.js'),
  join(DIST, 'build-info.json'),
  join(DIST, 'bundle', 'ds-doctor.cjs'),
];
const SOURCE_FOLDERS = ['src', 'test', 'bench', 'scripts'];
const SOURCE_FILE = /\.(ts|mts|mjs)$/;
/** Folders under the source folders that hold generated data, never sources (see .gitignore). */
const SKIPPED = new Set(['bench/out', 'test/cluster/.work']);
const FILES = ['tsconfig.json', 'package.json', 'node_modules/.package-lock.json'];

/** The source files under `dir` of the checkout at `base`, as paths relative to it, in a stable order. */
function sourceFiles(base, dir) {
  const found = [];
  for (const entry of readdirSync(join(base, dir), { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  )) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED.has(path) && entry.name !== 'node_modules') found.push(...sourceFiles(base, path));
    } else if (SOURCE_FILE.test(entry.name) || entry.name === 'tsconfig.json') found.push(path);
  }
  return found;
}

/** A hash of every path and byte the build of the checkout at `base` is made from. */
export function buildKey(base = root) {
  const hash = createHash('sha256');
  const files = [
    ...FILES.filter((f) => existsSync(join(base, f))),
    ...SOURCE_FOLDERS.filter((d) => existsSync(join(base, d))).flatMap((d) => sourceFiles(base, d)),
  ];
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(base, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** The key of the last finished build, when all it left is still there. */
function builtKey() {
  if (!OUTPUTS.every((f) => existsSync(f))) return undefined;
  // bin/launch.js runs the bundle only when it is newer than tsc's build: a tsc run outside this
  // script (npm run docs, fixtures) may have built since.
  const bundle = OUTPUTS[OUTPUTS.length - 1];
  if (statSync(bundle).mtimeMs < statSync(OUTPUTS[0]).mtimeMs) return undefined;
  try {
    return readFileSync(BUILD_KEY, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The commit the built bundle carries. */
function builtCommit() {
  try {
    return JSON.parse(readFileSync(join(DIST, 'build-info.json'), 'utf8')).commit;
  } catch {
    return undefined;
  }
}

/** Runs one step as its own Node process; a failure ends the build with its status. */
function step(args) {
  const run = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) {
    rmSync(BUILD_KEY, { force: true });
    process.exit(run.status ?? 1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const force = process.argv.includes('--force');
  const key = buildKey();
  const fresh = !force && builtKey() === key;
  if (fresh && builtCommit() === gitCommit()) {
    process.stdout.write(`build: up to date (${relative(root, BUILD_KEY)})\n`);
  } else {
    rmSync(BUILD_KEY, { force: true });
    if (!fresh) {
      step([join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json']);
      step([join(root, 'scripts', 'build-page.mjs')]);
    }
    step([join(root, 'scripts', 'build-info.mjs')]);
    step([join(root, 'scripts', 'bundle.mjs')]);
    writeFileSync(BUILD_KEY, `${key}\n`);
  }
}
