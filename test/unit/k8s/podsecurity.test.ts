// Cases ported from k8s.io/pod-security-admission policy/check_hostNamespaces_test.go,
// check_privileged_test.go, check_hostPorts_test.go, check_hostPathVolumes_test.go,
// check_capabilities_baseline_test.go, check_allowPrivilegeEscalation_test.go,
// check_runAsNonRoot_test.go (expected reasons and details as the checks write them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluatePod, podSecurityRefusal, type PodSecurityLevel } from '../../../src/k8s/podsecurity.js';
import type { Namespace, PodSpec } from '../../../src/model/k8s-types.js';

const c = (name: string, extra: Record<string, unknown> = {}) => ({ name, image: 'x', ...extra });
/** A spec that passes restricted: non-root, no escalation, ALL dropped, RuntimeDefault seccomp. */
const restrictedOk = (): PodSpec => ({
  securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
  containers: [c('a', { securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } })],
});

const CASES: { name: string; level: PodSecurityLevel; spec: PodSpec; want: string[] }[] = [
  {
    name: 'hostNamespaces: hostNetwork and hostPID',
    level: 'baseline',
    spec: { hostNetwork: true, hostPID: true, containers: [c('a')] },
    want: ['host namespaces (hostNetwork=true, hostPID=true)'],
  },
  {
    name: 'privileged: two containers',
    level: 'baseline',
    spec: {
      containers: [
        c('a', { securityContext: { privileged: true } }),
        c('b', { securityContext: { privileged: true } }),
      ],
    },
    want: ['privileged (containers "a", "b" must not set securityContext.privileged=true)'],
  },
  {
    name: 'privileged: false is allowed',
    level: 'baseline',
    spec: { containers: [c('a', { securityContext: { privileged: false } })] },
    want: [],
  },
  {
    name: 'hostPorts: one container, two ports',
    level: 'baseline',
    spec: {
      containers: [
        c('a', {
          ports: [
            { containerPort: 80, hostPort: 80 },
            { containerPort: 443, hostPort: 443 },
          ],
        }),
      ],
    },
    want: ['hostPort (container "a" uses hostPorts 80, 443)'],
  },
  {
    name: 'hostPathVolumes: two volumes',
    level: 'baseline',
    spec: {
      containers: [c('a')],
      volumes: [
        { name: 'proc', hostPath: { path: '/proc' } },
        { name: 'cfg', configMap: { name: 'x' } },
        { name: 'sys', hostPath: { path: '/sys' } },
      ],
    },
    want: ['hostPath volumes (volumes "proc", "sys")'],
  },
  {
    name: 'capabilities_baseline: NET_ADMIN is not a default capability, NET_BIND_SERVICE is',
    level: 'baseline',
    spec: { containers: [c('a', { securityContext: { capabilities: { add: ['NET_BIND_SERVICE', 'NET_ADMIN'] } } })] },
    want: ['non-default capabilities (container "a" must not include "NET_ADMIN" in securityContext.capabilities.add)'],
  },
  { name: 'baseline: a plain pod passes', level: 'baseline', spec: { containers: [c('a')] }, want: [] },
  {
    name: 'privileged level: nothing is checked',
    level: 'privileged',
    spec: { hostNetwork: true, containers: [c('a', { securityContext: { privileged: true } })] },
    want: [],
  },
  {
    name: 'restricted: a plain pod fails escalation, capabilities, runAsNonRoot and seccomp',
    level: 'restricted',
    spec: { containers: [c('a')] },
    want: [
      'allowPrivilegeEscalation != false (container "a" must set securityContext.allowPrivilegeEscalation=false)',
      'unrestricted capabilities (container "a" must set securityContext.capabilities.drop=["ALL"])',
      'runAsNonRoot != true (pod or container "a" must set securityContext.runAsNonRoot=true)',
      'seccompProfile (pod or container "a" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    ],
  },
  { name: 'restricted: a compliant pod passes', level: 'restricted', spec: restrictedOk(), want: [] },
  {
    name: 'restricted: a hostPath volume is a restricted volume type',
    level: 'restricted',
    spec: { ...restrictedOk(), volumes: [{ name: 'proc', hostPath: { path: '/proc' } }] },
    want: ['restricted volume types (volume "proc" uses restricted volume type "hostPath")'],
  },
];

for (const k of CASES) {
  test(`PodSecurity ${k.level}: ${k.name}`, () => {
    assert.deepEqual(
      evaluatePod(k.level, k.spec).map((f) => `${f.reason} (${f.detail})`),
      k.want,
    );
  });
}

const ns = (labels: Record<string, string>): Namespace => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'agents', labels },
});

test("the refusal reads like the API server's, checks in the registry's order", () => {
  const spec: PodSpec = {
    hostNetwork: true,
    containers: [c('agent', { securityContext: { privileged: true } })],
    volumes: [{ name: 'proc', hostPath: { path: '/proc' } }],
  };
  assert.equal(
    podSecurityRefusal(ns({ 'pod-security.kubernetes.io/enforce': 'baseline' }), 'agent-', spec),
    'pods "agent-" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true), privileged (container "agent" must not set securityContext.privileged=true), hostPath volumes (volume "proc")',
  );
});

test('the enforce-version label names the version; no enforce label or privileged admits everything', () => {
  const spec: PodSpec = { hostIPC: true, containers: [c('a')] };
  assert.match(
    podSecurityRefusal(
      ns({ 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': 'v1.30' }),
      'a-',
      spec,
    ) ?? '',
    /"restricted:v1\.30": host namespaces \(hostIPC=true\)/,
  );
  assert.equal(podSecurityRefusal(ns({ 'pod-security.kubernetes.io/warn': 'restricted' }), 'a-', spec), undefined);
  assert.equal(podSecurityRefusal(ns({ 'pod-security.kubernetes.io/enforce': 'privileged' }), 'a-', spec), undefined);
  assert.equal(podSecurityRefusal(undefined, 'a-', spec), undefined);
});
