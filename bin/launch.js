// Starts the CLI for the executables of bin/ (docs/performance.md).
//
// It runs dist/bundle/ds-doctor.cjs, the whole CLI in one file (scripts/bundle.mjs, written by
// `npm run build`), with a V8 code cache: the functions a command compiled are saved after its
// first run and reused by the next runs of that command, for this build and this Node.js. The
// cache lives in the user's cache directory (ds-doctor/code-cache); one that cannot be read or
// written, or that V8 rejects, only makes that run compile as usual.
//
// When the bundle is missing, or older than the last tsc build (a checkout rebuilt with tsc alone),
// the modules of dist/src run instead, so the command always runs the code last built.
//
// V8 flags are set here, at the process' start, never while it runs: when the YAML inputs are
// large, Node starts again with the heap's growth bounded (src/load/heap.ts heapFlags).
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
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
export async function launch(argv) {
  const flags = await startFlags(argv);
  if (flags.length > 0) return relaunch(flags, argv);
  const source = currentBundle();
  if (source === undefined) return import('../dist/src/cli/run.js').then((m) => m.run(argv));
  return runBundle(source, argv);
}

/**
 * The V8 flags this command needs at start (src/load/heap.ts), asked only when it reads files or
 * is told to (`--help`, `--version` and live commands load nothing more); none when that module
 * is missing.
 */
async function startFlags(argv) {
  if (
    process.env.DS_DOCTOR_HEAP_BOUND === undefined &&
    !argv.some((a) => a.startsWith('-f') || a.startsWith('--filename'))
  )
    return [];
  try {
    const { heapFlags } = await import('../dist/src/load/heap.js');
    return heapFlags(argv, process.env, process.execArgv);
  } catch {
    return [];
  }
}

/** Runs this command again in a Node started with `flags`, and ends as it ends. */
function relaunch(flags, argv) {
  const r = spawnSync(process.execPath, [...flags, ...process.execArgv, process.argv[1], ...argv], {
    stdio: 'inherit',
  });
  if (r.error) {
    process.stderr.write(`error: cannot start ${process.execPath}: ${r.error.message}\n`);
    process.exitCode = 3;
  } else if (r.signal) {
    process.kill(process.pid, r.signal);
  } else {
    process.exitCode = r.status ?? 3;
  }
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
    ...(vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER
      ? { importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER }
      : {}),
  });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(BUNDLE), module, BUNDLE, dirname(BUNDLE));
  await module.exports.run(argv);
  if (cacheFile && (!cachedData || script.cachedDataRejected)) saveCache(cacheFile, script.createCachedData());
}

/** The user's cache directory for ds-doctor, as each platform's tools place theirs. */
function cacheDir() {
  const env = process.env;
  if (process.platform === 'win32')
    return join(env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local'), 'ds-doctor', 'code-cache');
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
