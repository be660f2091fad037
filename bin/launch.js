// Starts the CLI for the executables of bin/ (README "Performance").
//
// It runs dist/bundle/ds-doctor.cjs, the whole CLI in one file (scripts/bundle.mjs, written by
// `npm run build`), with a V8 code cache: the functions a command compiled are saved after its
// first run and reused by the next runs of that command, for this build and this Node.js. The
// cache lives in the user's cache directory (ds-doctor/code-cache); one that cannot be read or
// written, or that V8 rejects, only makes that run compile as usual.
//
// When the bundle is missing, or older than the last tsc build (a checkout rebuilt with tsc alone),
// the modules of dist/src run instead, so the command always runs the code last built.
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const BUNDLE = join(DIST, 'bundle', 'ds-doctor.cjs');
/** The build id scripts/bundle.mjs writes on the bundle's first line. */
const BUILD_ID = /^\/\/ ds-doctor bundle ([0-9a-f]{16})\n/;
/** Cache files kept: a few commands of a few builds. */
const KEEP = 16;

/** Runs ds-doctor with `argv` (the words after the command's name). */
export function launch(argv) {
  const source = currentBundle();
  if (source === undefined) return import('../dist/src/cli/run.js').then((m) => m.run(argv));
  return runBundle(source, argv);
}

/** The bundle's text, unless it is missing or older than dist/.tsbuildinfo (tsc's last build). */
function currentBundle() {
  try {
    if (statSync(BUNDLE).mtimeMs < mtime(join(DIST, '.tsbuildinfo'))) return undefined;
    return readFileSync(BUNDLE, 'utf8');
  } catch {
    return undefined;
  }
}

function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** Evaluates the bundle as Node would a CommonJS module, with the code cache of this command, and runs it. */
async function runBundle(source, argv) {
  const id = BUILD_ID.exec(source)?.[1];
  const cacheFile = id ? cachePath(id, argv[0]) : undefined;
  const cachedData = cacheFile ? readCache(cacheFile) : undefined;
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: BUNDLE,
    ...(cachedData ? { cachedData } : {}),
    // Node >= 20.12: an import() left in the bundle resolves as in any module.
    ...(vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER ? { importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER } : {}),
  });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(BUNDLE), module, BUNDLE, dirname(BUNDLE));
  await module.exports.run(argv);
  if (cacheFile && (!cachedData || script.cachedDataRejected)) saveCache(cacheFile, script.createCachedData());
}

/** The user's cache directory for ds-doctor, as each platform's tools place theirs. */
function cacheDir() {
  const env = process.env;
  if (process.platform === 'win32') return join(env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local'), 'ds-doctor', 'code-cache');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'ds-doctor', 'code-cache');
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'ds-doctor', 'code-cache');
}

/** One cache file per build, Node.js and command: each command compiles different functions. */
function cachePath(id, first) {
  const command = /^[a-z_]{1,20}$/.test(first ?? '') ? first : 'main';
  try {
    return join(cacheDir(), `${id}-${process.version}-${process.arch}-${command}.v8`);
  } catch {
    return undefined;
  }
}

function readCache(file) {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Writes the cache (atomically: concurrent runs each rename a whole file) and keeps the newest few. */
function saveCache(file, data) {
  try {
    const dir = dirname(file);
    mkdirSync(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, data);
    renameSync(tmp, file);
    const old = readdirSync(dir)
      .filter((f) => f.endsWith('.v8'))
      .map((f) => ({ f, t: mtime(join(dir, f)) }))
      .sort((a, b) => b.t - a.t)
      .slice(KEEP);
    for (const { f } of old) unlinkSync(join(dir, f));
  } catch {
    // An unwritable cache only means the next run compiles again.
  }
}
