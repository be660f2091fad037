// bin/launch.js: which build the executables of bin/ run (the bundle, or the modules of dist/src
// when the bundle is missing or older than tsc's last build), and the V8 code cache of the bundle
// (written once per command, reused, rejected when corrupt, harmless when it cannot be written).
import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Runs `node bin/ds-doctor.js <argv>` with `cacheHome` as XDG_CACHE_HOME; stdout, stderr and exit code. */
async function ds(argv: string[], cacheHome: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/ds-doctor.js', ...argv], {
      env: { ...process.env, XDG_CACHE_HOME: cacheHome, NO_COLOR: '1' },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** The code cache files under `cacheHome`. */
async function cacheFiles(cacheHome: string): Promise<string[]> {
  try {
    return (await readdir(join(cacheHome, 'ds-doctor', 'code-cache'))).sort();
  } catch {
    return [];
  }
}

const LINT = ['lint', '-f', 'fixtures/manifests/agents/fluent-bit.yaml'];

/** The cache belongs to the bundle, which bin/ runs only when `npm run build` wrote it after tsc's last build. */
async function assertBundleCurrent(): Promise<void> {
  const mtime = async (file: string) => (await stat(file).catch(() => undefined))?.mtimeMs;
  const [bundle, tsc] = await Promise.all([mtime('dist/bundle/ds-doctor.cjs'), mtime('dist/.tsbuildinfo')]);
  if (bundle === undefined || (tsc !== undefined && bundle < tsc))
    assert.fail('dist/bundle/ds-doctor.cjs is missing or older than the last tsc build: run npm run build');
}

describe('code cache of the bundle', () => {
  beforeEach(assertBundleCurrent);

  test('the first run of a command writes its cache; the next run reuses it as it is', async () => {
    const home = await mkdtemp(join(tmpdir(), 'ds-doctor-cache-'));
    const first = await ds(LINT, home);
    const files = await cacheFiles(home);
    assert.equal(files.length, 1, files.join(', '));
    assert.match(
      files[0]!,
      new RegExp(`^[0-9a-f]{16}-${process.version.replace(/\./g, '\\.')}-${process.arch}-lint\\.v8$`),
    );
    const file = join(home, 'ds-doctor', 'code-cache', files[0]!);
    const written = await stat(file);
    const second = await ds(LINT, home);
    assert.deepEqual(second, first);
    assert.equal((await stat(file)).mtimeMs, written.mtimeMs, 'V8 accepted the cache, so it was not written again');
    assert.deepEqual(await cacheFiles(home), files);
  });

  test('each command has its own cache', async () => {
    const home = await mkdtemp(join(tmpdir(), 'ds-doctor-cache-'));
    await ds(['--version'], home);
    await ds(LINT, home);
    assert.deepEqual(
      (await cacheFiles(home)).map((f) => f.replace(/^.*-/, '')),
      ['lint.v8', 'main.v8'],
    );
  });

  test('a corrupt cache is rejected by V8 and written again; the answer is the same', async () => {
    const home = await mkdtemp(join(tmpdir(), 'ds-doctor-cache-'));
    const clean = await ds(LINT, home);
    const [name] = await cacheFiles(home);
    const file = join(home, 'ds-doctor', 'code-cache', name!);
    const garbage = Buffer.alloc(4096, 7);
    await writeFile(file, garbage);
    assert.deepEqual(await ds(LINT, home), clean);
    assert.notDeepEqual(await readFile(file), garbage);
  });

  test('a cache directory that cannot be written changes nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ds-doctor-cache-'));
    const notADirectory = join(dir, 'file');
    await writeFile(notADirectory, '');
    const clean = await ds(LINT, await mkdtemp(join(tmpdir(), 'ds-doctor-cache-')));
    assert.deepEqual(await ds(LINT, notADirectory), clean);
  });
});

// A copy of bin/launch.js beside a stand-in dist/: a bundle and a module tree that each say which ran.
interface Layout {
  name: string;
  /** Modification times in seconds, or null for a missing file. */
  bundle: number | null;
  tsbuildinfo: number | null;
  ran: 'bundle' | 'modules';
}

const LAYOUTS: Layout[] = [
  { name: 'bundle newer than the last tsc build', bundle: 2000, tsbuildinfo: 1000, ran: 'bundle' },
  {
    name: 'bundle older than the last tsc build (rebuilt with tsc alone)',
    bundle: 1000,
    tsbuildinfo: 2000,
    ran: 'modules',
  },
  { name: 'no bundle', bundle: null, tsbuildinfo: 1000, ran: 'modules' },
  { name: 'no tsbuildinfo (the installed package)', bundle: 1000, tsbuildinfo: null, ran: 'bundle' },
];

async function standIn(layout: Layout): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'ds-doctor-launch-'));
  await mkdir(join(root, 'bin'));
  await mkdir(join(root, 'dist', 'src', 'cli'), { recursive: true });
  await mkdir(join(root, 'dist', 'bundle'));
  await writeFile(join(root, 'package.json'), '{"type": "module"}\n');
  await copyFile('bin/launch.js', join(root, 'bin', 'launch.js'));
  await writeFile(
    join(root, 'dist', 'src', 'cli', 'run.js'),
    "export async function run(argv) { process.stdout.write(`modules ${argv.join(' ')}`); }\n",
  );
  const files: [string, number | null, string][] = [
    [
      join(root, 'dist', 'bundle', 'ds-doctor.cjs'),
      layout.bundle,
      "// ds-doctor bundle 0123456789abcdef\nexports.run = async (argv) => { process.stdout.write(`bundle ${argv.join(' ')}`); };\n",
    ],
    [join(root, 'dist', '.tsbuildinfo'), layout.tsbuildinfo, '{}\n'],
  ];
  for (const [file, time, text] of files) {
    if (time === null) continue;
    await writeFile(file, text);
    await utimes(file, time, time);
  }
  return root;
}

describe('which build bin/ runs', () => {
  for (const layout of LAYOUTS) {
    test(layout.name, async () => {
      const root = await standIn(layout);
      const launch = pathToFileURL(join(root, 'bin', 'launch.js')).href;
      const { stdout } = await run(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import { launch } from ${JSON.stringify(launch)}; await launch(['scan', '-A']);`,
        ],
        {
          env: { ...process.env, XDG_CACHE_HOME: join(root, 'cache') },
        },
      );
      assert.equal(stdout, `${layout.ran} scan -A`);
    });
  }
});
