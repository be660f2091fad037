// Shell completion (src/cli/complete.ts): what `ds-doctor __complete <words…>` offers for each
// position of a command line, with a fixed set of names standing in for the input or cluster.
// The protocol (candidates, then ":<directive>") is cobra's, which kubectl's plugin completion
// parses (kubernetes v1.35 staging/src/k8s.io/kubectl/pkg/cmd/plugin/plugin_completion.go).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { complete, DIRECTIVE, type NameSource } from '../../src/cli/complete.js';
import { capturingIo } from '../harness.js';

const NAMES: NameSource = async (kind) => {
  if (kind === 'DaemonSet')
    return [
      { namespace: 'logging', name: 'fluent-bit' },
      { namespace: 'kube-system', name: 'calico-node' },
      { namespace: 'kube-system', name: 'kube-proxy' },
    ];
  if (kind === 'Node') return [{ name: 'worker-2' }, { name: 'worker-1' }, { name: 'cp-1' }];
  return [{ name: 'logging' }, { name: 'kube-system' }];
};
const FAILING: NameSource = async () => {
  throw new Error('connect ECONNREFUSED 127.0.0.1:6443');
};

async function completeLine(
  words: string[],
  names: NameSource = NAMES,
): Promise<{ candidates: string[]; directive: number; stderr: string; code: number }> {
  const { io, output } = capturingIo();
  const code = await complete(words, io, names);
  const { stdout, stderr } = output();
  const lines = stdout.split('\n').filter(Boolean);
  const last = lines.pop() ?? '';
  assert.match(last, /^:\d+$/, `the last line is the directive: ${stdout}`);
  return { candidates: lines.map((l) => l.split('\t')[0]!), directive: Number(last.slice(1)), stderr, code };
}

const NO_FILES = DIRECTIVE.noFileComp;
const FILES = DIRECTIVE.default;

const CASES: { name: string; words: string[]; candidates: string[]; directive?: number }[] = [
  {
    name: 'commands',
    words: [''],
    candidates: [
      'scan',
      'why',
      'nodes',
      'node',
      'rollout',
      'impact',
      'lint',
      'plan',
      'report',
      'version',
      'completion',
    ],
  },
  { name: 'commands by prefix', words: ['no'], candidates: ['nodes', 'node'] },
  { name: 'an unknown command offers nothing', words: ['bogus', ''], candidates: [] },
  { name: 'program flags', words: ['--'], candidates: ['--version', '--help'] },
  {
    name: 'DaemonSets as namespace/name',
    words: ['why', ''],
    candidates: ['kube-system/calico-node', 'kube-system/kube-proxy', 'logging/fluent-bit'],
  },
  { name: 'DaemonSets by prefix', words: ['rollout', 'kube-system/k'], candidates: ['kube-system/kube-proxy'] },
  {
    name: 'DaemonSets as name with -n',
    words: ['impact', '-n', 'kube-system', ''],
    candidates: ['calico-node', 'kube-proxy'],
  },
  {
    name: 'DaemonSets as name with --namespace=',
    words: ['nodes', '--namespace=logging', ''],
    candidates: ['fluent-bit'],
  },
  {
    name: 'nodes after the DaemonSet of why',
    words: ['why', 'logging/fluent-bit', 'worker'],
    candidates: ['worker-1', 'worker-2'],
  },
  {
    name: 'nodes of node, after flags with values',
    words: ['node', '-o', 'json', '-f', 'dump.yaml', ''],
    candidates: ['cp-1', 'worker-1', 'worker-2'],
  },
  { name: 'nothing after the last argument', words: ['why', 'logging/fluent-bit', 'worker-1', ''], candidates: [] },
  {
    name: '-o formats',
    words: ['scan', '-o', ''],
    candidates: ['table', 'wide', 'json', 'yaml', 'markdown', 'name', 'junit'],
  },
  { name: 'why -o formats', words: ['why', '-o', ''], candidates: ['table', 'wide', 'json', 'yaml', 'markdown'] },
  { name: "kubectl's connection flags", words: ['scan', '--as-g'], candidates: ['--as-group'] },
  {
    name: 'commands after flags before the command',
    words: ['--context', 'prod', '-n', 'logging', 'sc'],
    candidates: ['scan'],
  },
  {
    name: 'DaemonSets after flags before the command',
    words: ['-n', 'logging', 'why', ''],
    candidates: ['fluent-bit'],
  },
  { name: 'values of a flag before the command', words: ['--fail-on', 'w'], candidates: ['warning'] },
  { name: 'lint -o also sarif', words: ['lint', '--output', 's'], candidates: ['sarif'] },
  { name: '--output= formats', words: ['scan', '--output=j'], candidates: ['--output=json', '--output=junit'] },
  {
    name: '--cascade modes',
    words: ['impact', 'x', '--cascade', ''],
    candidates: ['background', 'foreground', 'orphan'],
  },
  { name: '--cascade= modes', words: ['impact', '--cascade=o'], candidates: ['--cascade=orphan'] },
  { name: '--fail-on levels', words: ['lint', '--fail-on', ''], candidates: ['error', 'warning', 'none'] },
  { name: '--verdict values', words: ['nodes', 'x', '--verdict', 'Un'], candidates: ['Unhealthy'] },
  {
    name: '--verdict lists: the next value after a comma',
    words: ['nodes', '--verdict', 'Pending,M'],
    candidates: ['Pending,Missing', 'Pending,Misscheduled'],
  },
  { name: '-n namespaces', words: ['scan', '-n', ''], candidates: ['kube-system', 'logging'] },
  { name: '-f completes files', words: ['scan', '-f', ''], candidates: [], directive: FILES },
  { name: '--kubeconfig completes files', words: ['scan', '--kubeconfig', ''], candidates: [], directive: FILES },
  { name: '--cluster-dump completes files', words: ['plan', '--cluster-dump', ''], candidates: [], directive: FILES },
  { name: 'a flag already given is not offered again', words: ['scan', '--all-namespaces', '--all-n'], candidates: [] },
  {
    name: 'scan reads every context with --all-contexts',
    words: ['scan', '--all-namespaces', '--all'],
    candidates: ['--all-contexts'],
  },
  {
    name: '--context may repeat where several clusters are read',
    words: ['scan', '--context', 'a', '--cont'],
    candidates: ['--context'],
  },
  { name: '--context is given once elsewhere', words: ['why', 'x', '--context', 'a', '--cont'], candidates: [] },
  { name: '-f may repeat', words: ['scan', '-f', 'a.yaml', '--filen'], candidates: ['--filename'] },
  { name: 'command flags', words: ['impact', '--ca'], candidates: ['--cascade'] },
  { name: 'completion shells', words: ['completion', ''], candidates: ['bash', 'zsh', 'fish', 'powershell'] },
  { name: 'version -o', words: ['version', '-o', ''], candidates: ['text', 'json', 'yaml'] },
  {
    name: 'report -o completes files (it names the page written)',
    words: ['report', '-o', ''],
    candidates: [],
    directive: FILES,
  },
];

for (const c of CASES) {
  test(`complete: ${c.name}`, async () => {
    const r = await completeLine(c.words);
    assert.deepEqual(r.candidates, c.candidates);
    assert.equal(r.directive, c.directive ?? NO_FILES);
    assert.equal(r.code, 0);
  });
}

describe("complete: a lone dash offers long and short flags, with the command's own", () => {
  for (const flag of ['-f', '--filename', '-n', '-A', '-o', '--verdict', '-l', '--selector', '--now']) {
    test(`complete: nodes - offers ${flag}`, async () => {
      const r = await completeLine(['nodes', '-']);
      assert.ok(r.candidates.includes(flag), flag);
    });
  }
  test("complete: nodes - does not offer impact's --cascade", async () => {
    const r = await completeLine(['nodes', '-']);
    assert.ok(!r.candidates.includes('--cascade'), "impact's flag is not offered for nodes");
  });
});

test('complete: candidates carry descriptions after a tab (zsh, fish, powershell show them)', async () => {
  const { io, output } = capturingIo();
  await complete(['sc'], io, NAMES);
  assert.match(output().stdout, /^scan\tEvery DaemonSet in scope/);
});

test('complete: a source that fails (no cluster) gives no candidates, nothing on stderr, exit 0', async () => {
  const r = await completeLine(['why', ''], FAILING);
  assert.deepEqual(r.candidates, []);
  assert.equal(r.directive, NO_FILES);
  assert.equal(r.stderr, '');
  assert.equal(r.code, 0);
});
