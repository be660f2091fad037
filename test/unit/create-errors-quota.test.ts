// A ResourceQuota admission configured with limitedResources refuses a pod whose scope or resource
// no quota of its namespace covers (kubernetes v1.35.4
// staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go#CheckRequest). The
// messages below are the expErr values of plugin/pkg/admission/resourcequota/admission_test.go
// #TestAdmitLimitedScopeWithCoverQuota, and the GKE one that odigos#1321, rook#11973 and
// gatekeeper#1120 met (system-node-critical outside kube-system). The fix is a ResourceQuota whose scopeSelector covers the refused scope.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyCreateError } from '../../src/analyze/create-errors.js';
import { diagnoseAllNodes } from '../../src/analyze/placement/index.js';
import { NOW, daemonSet, event, indexOf, node } from '../builders.js';

const cases: { name: string; message: string; summary: RegExp; fix: RegExp; notFix?: RegExp }[] = [
  {
    name: 'upstream: PriorityClass Exists without a covering quota',
    message: 'Error creating: insufficient quota to match these scopes: [{PriorityClass Exists []}]',
    summary:
      /admits pods of scope PriorityClass Exists only in a namespace with a ResourceQuota that covers that scope, and namespace agents has none/,
    fix: /"scopeSelector":\{"matchExpressions":\[\{"scopeName":"PriorityClass","operator":"Exists"\}\]\}.*drop the template's priorityClassName/,
  },
  {
    name: 'upstream: two scopes, both uncovered',
    message:
      'Error creating: insufficient quota to match these scopes: [{BestEffort Exists []} {PriorityClass In [cluster-services]}]',
    summary: /scope BestEffort Exists; PriorityClass In \[cluster-services\] only/,
    fix: /\{"scopeName":"BestEffort","operator":"Exists"\},\{"scopeName":"PriorityClass","operator":"In","values":\["cluster-services"\]\}/,
  },
  {
    name: 'upstream: BestEffort only: no word about priority classes',
    message: 'Error creating: insufficient quota to match these scopes: [{BestEffort Exists []}]',
    summary: /scope BestEffort Exists only/,
    fix: /"matchExpressions":\[\{"scopeName":"BestEffort","operator":"Exists"\}\]/,
    notFix: /priorityClassName/,
  },
  {
    name: 'GKE: the system critical classes outside kube-system',
    message:
      'Error creating: insufficient quota to match these scopes: [{PriorityClass In [system-node-critical system-cluster-critical]}]',
    summary:
      /PriorityClass In \[system-node-critical, system-cluster-critical\].*GKE sets it for the system-node-critical and system-cluster-critical priority classes/,
    fix: /"values":\["system-node-critical","system-cluster-critical"\].*in a namespace that has one \(kube-system\)/,
  },
  {
    name: 'upstream: a limited resource without a covering quota',
    message: 'Error creating: pods "agent-x" is forbidden: insufficient quota to consume: requests.cpu',
    summary: /admits pods that consume requests\.cpu only in a namespace with a ResourceQuota that covers it/,
    fix: /ResourceQuota in namespace agents with a hard limit on requests\.cpu/,
  },
];

describe('ResourceQuota limitedResources refusals', () => {
  for (const c of cases) {
    test(c.name, () => {
      const got = classifyCreateError(c.message, 'agents');
      assert.equal(got.kind, 'ResourceQuota scope');
      assert.match(got.summary, c.summary);
      assert.match(got.fix, c.fix);
      if (c.notFix) assert.doesNotMatch(got.fix, c.notFix);
    });
  }

  test('the per-node verdict carries it, not "API error"', () => {
    const ds = daemonSet('agent', 'agents').build();
    const index = indexOf({
      nodes: [node('n1').build()],
      daemonSets: [ds],
      events: [event('DaemonSet', ds, 'FailedCreate', cases[3]!.message)],
    });
    const reason = diagnoseAllNodes(index, ds, NOW, 600)[0]!.reasons.find((r) => r.code === 'FailedCreate');
    assert.ok(reason);
    assert.match(
      reason.message,
      /the controller cannot create the pod: the API server admits pods of scope PriorityClass In/,
    );
    assert.match(reason.fix, /kind":"ResourceQuota"/);
  });
});
