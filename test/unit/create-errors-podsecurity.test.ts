// A PodSecurity refusal says whose level it is. Pod Security admission enforces the namespace's
// pod-security.kubernetes.io/enforce label and, for a label the namespace does not set, the
// default of the API server's admission configuration (kubernetes v1.35.4
// staging/src/k8s.io/pod-security-admission/api/helpers.go#PolicyToEvaluate; its test
// helpers_test.go TestPolicyToEvaluate, "all defaults" with no labels). So a bare namespace (helm
// --create-namespace) refused at "baseline" is refused by the cluster's default, not by a label:
// freed-dev-llc/turing-rk1-cluster#65 (Talos defaults to baseline).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnoseAllNodes } from '../../src/analyze/placement/index.js';
import type { Namespace } from '../../src/model/k8s-types.js';
import { NOW, daemonSet, event, indexOf, node } from '../builders.js';

const REFUSAL =
  'Error creating: pods "agent-7xk2p" is forbidden: violates PodSecurity "baseline:latest": hostPath volumes (volumes "proc"), privileged (container "agent" must not set securityContext.privileged=true)';

function namespace(labels: Record<string, string>): Namespace {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'agents', labels } };
}

const cases: { name: string; namespaces?: Namespace[]; want: RegExp }[] = [
  {
    name: 'the namespace sets the enforce level: the namespace’s policy',
    namespaces: [
      namespace({ 'kubernetes.io/metadata.name': 'agents', 'pod-security.kubernetes.io/enforce': 'baseline' }),
    ],
    want: /^the controller cannot create the pod: the pod violates the namespace's PodSecurity "baseline:latest" policy: hostPath/,
  },
  {
    name: 'the namespace sets none: the cluster’s default level, named as such',
    namespaces: [namespace({ 'kubernetes.io/metadata.name': 'agents' })],
    want: /the pod violates PodSecurity "baseline:latest", the cluster's default level \(namespace agents has no pod-security\.kubernetes\.io\/enforce label, so the API server's admission configuration decides\): hostPath/,
  },
  {
    name: 'only a warn label: enforcement still comes from the default',
    namespaces: [namespace({ 'pod-security.kubernetes.io/warn': 'restricted' })],
    want: /the cluster's default level/,
  },
  {
    name: 'the namespace is not in the input: nothing is claimed about its labels',
    want: /the pod violates the namespace's PodSecurity "baseline:latest" policy/,
  },
];

describe('PodSecurity refusal: whose level', () => {
  for (const c of cases) {
    test(c.name, () => {
      const ds = daemonSet('agent', 'agents').build();
      const index = indexOf({
        nodes: [node('n1').build()],
        daemonSets: [ds],
        events: [event('DaemonSet', ds, 'FailedCreate', REFUSAL)],
        ...(c.namespaces ? { namespaces: c.namespaces } : {}),
      });
      const row = diagnoseAllNodes(index, ds, NOW, 600)[0]!;
      const reason = row.reasons.find((r) => r.code === 'FailedCreate');
      assert.ok(reason, JSON.stringify(row.reasons));
      assert.match(reason.message, c.want);
      assert.match(reason.fix, /kubectl label namespace agents pod-security\.kubernetes\.io\/enforce=privileged/);
    });
  }
});
