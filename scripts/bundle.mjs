#!/usr/bin/env node
// The CLI as one CommonJS file, dist/bundle/ds-doctor.cjs: what bin/ds-doctor.js runs (README
// "Performance"), and what the single executable embeds (scripts/package.mjs). Run by
// `npm run build`, after tsc (it bundles dist/src) and scripts/build-info.mjs (it compiles the
// commit in).
//
// One file starts faster than ~100 ES modules (one resolution, read and compile each) and, being a
// classic script, can use a V8 code cache (bin/launch.js). esbuild turns each module reached only
// through import() into a lazily run one, so @kubernetes/client-node is bundled but never evaluated
// on the offline path; the build fails if the start-up graph reaches it. The first line names the
// build (a hash of the rest), which keys the code cache.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Where `npm run build` writes the bundle; bin/launch.js reads it from here. */
export const BUNDLE = join(root, 'dist', 'bundle', 'ds-doctor.cjs');

// Optional modules that dependencies of the live client try to require inside try/catch (ws,
// debug, node-fetch). Bundled as "not found", so that require() (which, in the single executable,
// loads only built-in modules, and warns otherwise) is never asked for them.
const ABSENT = /^(bufferutil|utf-8-validate|supports-color|encoding)$/;
const absentOptional = {
  name: 'absent-optional',
  setup(b) {
    b.onResolve({ filter: ABSENT }, (a) => ({ path: a.path, namespace: 'absent' }));
    b.onLoad({ filter: /.*/, namespace: 'absent' }, (a) => ({
      contents: `throw Object.assign(new Error(${JSON.stringify(`Cannot find module '${a.path}'`)}), { code: 'MODULE_NOT_FOUND' });`,
      loader: 'js',
    }));
  },
};

/**
 * The inputs the bundle evaluates at start-up: those reachable from the entry through static
 * imports. A module reached only through import() is wrapped by esbuild and evaluated on demand.
 */
export function startupInputs(metafile, entry) {
  const seen = new Set([entry]);
  const queue = [entry];
  while (queue.length) {
    for (const imp of metafile.inputs[queue.shift()]?.imports ?? []) {
      if (imp.kind === 'dynamic-import' || imp.external || seen.has(imp.path)) continue;
      seen.add(imp.path);
      queue.push(imp.path);
    }
  }
  return seen;
}

/** The commit scripts/build-info.mjs recorded, or "unknown". */
function recordedCommit() {
  try {
    const { commit } = JSON.parse(readFileSync(join(root, 'dist', 'build-info.json'), 'utf8'));
    return typeof commit === 'string' ? commit : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** What both bundles are: one minified CommonJS script for Node 20, kept in memory. */
const COMMON = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: true,
  write: false,
};

/**
 * The YAML translation worker (dist/src/load/yaml-worker.js) as one script, which the CLI bundle
 * carries as a string and starts with `new Worker(code, { eval: true })`: the bundle and the
 * single executable then need no file beside them.
 */
async function bundleYamlWorker() {
  const result = await build({ ...COMMON, entryPoints: ['dist/src/load/yaml-worker.js'], logLevel: 'warning' });
  return result.outputFiles[0].text;
}

/**
 * Bundles dist/src/cli/run.js into `outfile` (CommonJS, exporting `run`; with `start`, running it
 * on the process's arguments instead, as the single executable's main script), with `commit`
 * compiled in; fails if the start-up graph reaches the live client (docs/design.md §1.1).
 */
export async function bundleCli(outfile, commit, { start = false } = {}) {
  const entry = start ? 'ds-doctor-sea.mjs' : 'dist/src/cli/run.js';
  const yamlWorker = await bundleYamlWorker();
  const result = await build({
    ...COMMON,
    ...(start
      ? {
          stdin: {
            contents: "import { run } from './dist/src/cli/run.js';\nrun(process.argv.slice(2));\n",
            resolveDir: root,
            sourcefile: entry,
          },
        }
      : { entryPoints: [entry] }),
    outfile,
    define: {
      DS_DOCTOR_COMMIT: JSON.stringify(commit),
      DS_DOCTOR_YAML_WORKER: JSON.stringify(yamlWorker),
      'import.meta.url': '"file:///ds-doctor"',
    },
    plugins: [absentOptional],
    logLevel: 'warning',
    metafile: true,
  });
  const eager = [...startupInputs(result.metafile, entry)].filter(
    (p) =>
      p.includes('node_modules/@kubernetes/client-node/') ||
      p.endsWith('src/load/live.js') ||
      p.startsWith('dist/src/client/'),
  );
  if (eager.length)
    throw new Error(`the bundle evaluates the live client at start-up: ${eager.slice(0, 3).join(', ')}`);
  const code = result.outputFiles[0].text;
  const id = createHash('sha256').update(code).digest('hex').slice(0, 16);
  mkdirSync(dirname(outfile), { recursive: true });
  writeFileSync(outfile, `// ds-doctor bundle ${id}\n${code}`);
  return outfile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await bundleCli(BUNDLE, recordedCommit());
}
