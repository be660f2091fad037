// The bash script of `ds-doctor completion bash` in a real bash, driving the real bin/ through
// `__complete`, as a user's shell does: npm test runs a few cases (test/cli/completion.test.ts),
// the slow tier every one (test/slow/completion-bash.test.ts). The words each case completes are
// also checked in-process (test/unit/complete.test.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { runCli } from './harness.js';

const run = promisify(execFile);

/** A PATH entry holding `ds-doctor`, as an install would. */
async function binDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ds-doctor-completion-'));
  await symlink(resolve('bin/ds-doctor.js'), join(dir, 'ds-doctor'));
  return dir;
}

/** The bash completion script, written once (one case below sources it as users do, from the command). */
const completionScript = (async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ds-doctor-completion-script-'));
  const file = join(dir, 'ds-doctor.bash');
  const r = await runCli(['completion', 'bash']);
  assert.equal(r.code, 0, r.stderr);
  await writeFile(file, r.stdout);
  return file;
})();

/** Runs the bash completion function for COMP_WORDS / COMP_CWORD as bash would, returns COMPREPLY. */
async function bashComplete(words: string[], cword = words.length - 1, source?: string): Promise<string[]> {
  const dir = await binDir();
  const quoted = words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
  const script = `source ${source ?? `'${await completionScript}'`}; COMP_WORDS=(${quoted}); COMP_CWORD=${cword}; _ds_doctor; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const { stdout } = await run('bash', ['-c', script], {
    env: { ...process.env, PATH: `${dir}:${process.env['PATH']}`, KUBECONFIG: join(dir, 'none') },
  });
  return stdout.split('\n').filter(Boolean);
}

const BASH_CASES: { name: string; words: string[]; reply: string[]; quick?: true }[] = [
  { name: 'commands by prefix', words: ['ds-doctor', 'ro'], reply: ['rollout'], quick: true },
  {
    name: 'DaemonSets of the -f input',
    quick: true,
    words: ['ds-doctor', 'why', '-f', 'fixtures/demo', ''],
    reply: [
      'kube-system/calico-node',
      'kube-system/ebs-csi-node',
      'kube-system/kube-proxy',
      'kube-system/nvidia-device-plugin-daemonset',
      'logging/fluent-bit',
      'monitoring/node-exporter',
    ],
  },
  {
    name: 'DaemonSet names with -n',
    words: ['ds-doctor', 'rollout', '-n', 'logging', '-f', 'fixtures/demo', ''],
    reply: ['fluent-bit'],
  },
  {
    name: 'nodes of the -f input',
    words: ['ds-doctor', 'why', 'logging/fluent-bit', '-f', 'fixtures/demo', 'gpu'],
    reply: ['gpu-1', 'gpu-2'],
  },
  {
    name: 'flag values split on "=" by bash',
    quick: true,
    words: ['ds-doctor', 'impact', '--cascade', '=', 'o'],
    reply: ['orphan'],
  },
  { name: '-o formats', words: ['ds-doctor', 'scan', '-o', 'y'], reply: ['yaml'] },
  { name: 'no cluster: no DaemonSets, quietly', words: ['ds-doctor', 'why', ''], reply: [] },
];

/** The cases in a real bash: every one (`full`), or those marked quick and the README's way of sourcing the script. */
export function bashCompletion(mode: 'quick' | 'full'): void {
  // Each case is its own bash and CLI processes: they run side by side.
  describe('bash completion', { concurrency: true }, () => {
    for (const c of BASH_CASES.filter((c) => mode === 'full' || c.quick)) {
      test(c.name, async () => {
        assert.deepEqual(await bashComplete(c.words), c.reply);
      });
    }
    test('sourced from the command, as the README says: source <(ds-doctor completion bash)', async () => {
      assert.deepEqual(await bashComplete(['ds-doctor', 'ro'], 1, '<(ds-doctor completion bash)'), ['rollout']);
    });
  });
}
