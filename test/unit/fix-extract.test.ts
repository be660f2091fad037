// The fix differential's reader of printed fixes (test/diff/fix-extract.ts): which part of a fix
// is a command to run, which is advice, and which only looks like a command. The texts are the
// ones ds-doctor prints (built by the same functions where they are exported).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandArgs, extractFix, type FixAction } from '../diff/fix-extract.js';
import { stepNodes } from '../diff/fix-run.js';
import { createRetryNote } from '../../src/analyze/create-errors.js';
import { rollbackAdvice } from '../../src/k8s/rollback.js';
import { tolerationPatch } from '../../src/analyze/causes/context.js';
import { daemonSet, node } from '../builders.js';

const texts = (a: FixAction[]) =>
  a.map((x) => (x.kind === 'kubectl' ? x.args.join(' ') : `${x.op} ${x.path} ${JSON.stringify(x.value)}`));

const CASES: {
  name: string;
  fix: string;
  alternatives: string[];
  followUps?: string[];
  templates?: number;
  unreadable?: number;
}[] = [
  {
    name: 'NodeSelectorMismatch: the label command, the condition around it is prose',
    fix: 'if the DaemonSet should run here: kubectl label node n1 pool=gpu --overwrite; otherwise nothing to do',
    alternatives: ['label node n1 pool=gpu --overwrite'],
  },
  {
    name: 'RevisionFailing: rollout undo to a revision, up to the semicolon',
    fix: 'roll back: kubectl rollout undo daemonset/agent -n ops --to-revision=1; then fix the change (spec.containers[agent].image: a → b) before re-applying',
    alternatives: ['rollout undo daemonset/agent -n ops --to-revision=1'],
  },
  {
    name: 'a crash: kubectl logs is read-only, the rollback tail is the command',
    fix: `read the crash: kubectl logs -n ops agent-x -c agent --previous; fix the config or image${rollbackAdvice({ kind: 'revision', revision: 1 }, 'ops', 'agent')}`,
    alternatives: ['rollout undo daemonset/agent -n ops'],
  },
  {
    name: 'no earlier revision: the text says what the command would do, and is no command',
    fix: `fix the image${rollbackAdvice({ kind: 'none', revisions: 1 }, 'ops', 'agent')}`,
    alternatives: [],
  },
  {
    name: 'BudgetHeldByDeadNodes: two ways, a node list ended by a parenthesis and a JSON merge patch',
    fix: `if the machines are gone for good: kubectl delete node n3 n4 (their pods are garbage-collected and the 2 unit(s) are freed); otherwise raise the budget past them: kubectl patch daemonset agent -n ops --type merge -p '{"spec":{"updateStrategy":{"rollingUpdate":{"maxUnavailable":3}}}}' (the rollout goes on 1 node(s) at a time; set it back afterwards)`,
    alternatives: [
      'delete node n3 n4',
      'patch daemonset agent -n ops --type merge -p {"spec":{"updateStrategy":{"rollingUpdate":{"maxUnavailable":3}}}}',
    ],
  },
  {
    name: 'a cordoned node: uncordon, or a toleration to add (a field edit)',
    fix: 'kubectl uncordon n1, or add to spec.template.spec.tolerations: - {key: node.kubernetes.io/unschedulable, operator: Exists, effect: NoSchedule}',
    alternatives: [
      'uncordon n1',
      'add-to spec.template.spec.tolerations {"key":"node.kubernetes.io/unschedulable","operator":"Exists","effect":"NoSchedule"}',
    ],
  },
  {
    name: 'UntoleratedTaint: a quoted value stays a string',
    fix: 'if the DaemonSet should run on this node, add to spec.template.spec.tolerations: - {key: example.com/maint, operator: Equal, value: "true", effect: NoExecute}',
    alternatives: [
      'add-to spec.template.spec.tolerations {"key":"example.com/maint","operator":"Equal","value":"true","effect":"NoExecute"}',
    ],
  },
  {
    name: 'surge with a host port: a field set',
    fix: 'the old pod of this DaemonSet holds the port: surge cannot work with host ports; set spec.updateStrategy.rollingUpdate to {maxSurge: 0, maxUnavailable: 1}',
    alternatives: ['set spec.updateStrategy.rollingUpdate {"maxSurge":0,"maxUnavailable":1}'],
  },
  {
    name: 'Pod Security: label the namespace; the retry nudge follows, its timestamp evaluated',
    fix: `node agents usually need the privileged level: kubectl label namespace ops pod-security.kubernetes.io/enforce=privileged --overwrite (or make the pod meet "baseline"); ${createRetryNote('ops', 'agent')}`,
    alternatives: ['label namespace ops pod-security.kubernetes.io/enforce=privileged --overwrite'],
    followUps: ['annotate daemonset/agent -n ops ds-doctor/retry-at=$(date +%s) --overwrite'],
  },
  {
    name: 'a quota: kubectl edit is interactive, so the fix is advice (the nudge alone is no fix)',
    fix: `raise the quota (kubectl edit resourcequota -n ops quota) or lower the DaemonSet's requests; ${createRetryNote('ops', 'agent')}`,
    alternatives: [],
    followUps: ['annotate daemonset/agent -n ops ds-doctor/retry-at=$(date +%s) --overwrite'],
  },
  {
    name: 'OnDelete: a pod to fill in is a template, not a command',
    fix: 'roll one canary node first, check it, then the rest one at a time: kubectl delete pod -n ops <pod>',
    alternatives: [],
    templates: 1,
  },
  {
    name: 'a next step: the command ends at the shell comment',
    fix: 'canary: kubectl delete pod -n ops agent-abcde   # node n1; wait until ds-doctor why ops/agent n1 says Healthy',
    alternatives: ['delete pod -n ops agent-abcde'],
  },
  {
    name: 'a patch whose JSON does not parse only looks like a command',
    fix: `kubectl patch daemonset agent -n ops --type json -p '[{"op":"add",'`,
    alternatives: [],
    unreadable: 1,
  },
  {
    name: 'a label without key=value only looks like a command',
    fix: 'kubectl label node n1 the pool label',
    alternatives: [],
    unreadable: 1,
  },
];

for (const c of CASES) {
  test(`extractFix: ${c.name}`, () => {
    const x = extractFix(c.fix);
    assert.deepEqual(texts(x.alternatives), c.alternatives);
    assert.deepEqual(texts(x.followUps), c.followUps ?? []);
    assert.equal(x.templates.length, c.templates ?? 0);
    assert.equal(x.unreadable.length, c.unreadable ?? 0, JSON.stringify(x.unreadable));
  });
}

test('extractFix: the toleration patch a root cause prints is one JSON patch command', () => {
  const ds = daemonSet('nfd-worker', 'ops').build();
  const n = node('gpu-1').taint('nvidia.com/gpu', 'present', 'NoSchedule').build();
  const fix = tolerationPatch(ds, n, 'so the labeller runs there')!;
  const x = extractFix(`${fix}; once it labels them, the plugin is placed there (ds-doctor why ops/nfd-worker gpu-1)`);
  assert.equal(x.alternatives.length, 1);
  const a = x.alternatives[0]!;
  assert.equal(a.kind, 'kubectl');
  assert.deepEqual(a.kind === 'kubectl' ? a.args.slice(0, 6) : [], [
    'patch',
    'daemonset',
    'nfd-worker',
    '-n',
    'ops',
    '--type',
  ]);
  assert.deepEqual(JSON.parse(a.kind === 'kubectl' ? a.args.at(-1)! : '[]'), [
    {
      op: 'add',
      path: '/spec/template/spec/tolerations',
      value: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
    },
  ]);
});

test('commandArgs evaluates the timestamp substitution and nothing else', () => {
  const [, follow] = [undefined, extractFix(createRetryNote('ops', 'agent')).followUps[0]!];
  assert.equal(follow.kind, 'kubectl');
  if (follow.kind !== 'kubectl') return;
  assert.deepEqual(commandArgs(follow, new Date(1_700_000_000_000)), [
    'annotate',
    'daemonset/agent',
    '-n',
    'ops',
    'ds-doctor/retry-at=1700000000',
    '--overwrite',
  ]);
});

test('stepNodes: the nodes a next step is about', () => {
  assert.deepEqual(
    stepNodes(
      'node n2 (pod agent-x): fix node n2 (kubectl describe node n2); until then it holds one unit of maxUnavailable',
    ),
    ['n2'],
  );
  assert.deepEqual(
    stepNodes(
      'nodes n1, n3: surge cannot work with host ports: set spec.updateStrategy.rollingUpdate to {maxSurge: 0, maxUnavailable: 1}',
    ),
    ['n1', 'n3'],
  );
  assert.deepEqual(
    stepNodes(
      'canary: kubectl delete pod -n ops agent-x   # node n4; wait until ds-doctor why ops/agent n4 says Healthy',
    ),
    ['n4'],
  );
  assert.deepEqual(stepNodes('no single node explains it: run ds-doctor why ops/agent'), []);
});
