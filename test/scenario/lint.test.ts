/**
 * `lint` on real-world manifests: the DaemonSet guide's Fluent Bit manifest (which rules fire
 * and why), the well-known node agents (few, sensible findings; no false "privileged" error on a
 * CNI agent; nothing about replicas or anti-affinity), the same agents against a cluster
 * inventory (the cluster rules come alive), the demo dump, and the bad manifests.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LintReport } from '../../src/model/results.js';
import { RULES } from '../../src/lint/registry.js';
import { runCli } from '../harness.js';

const AGENTS = 'fixtures/manifests/agents';
const GUIDE = `${AGENTS}/fluent-bit.yaml`;

async function lintJson(...args: string[]): Promise<{ code: number; report: LintReport }> {
  const run = await runCli(['lint', ...args, '-o', 'json']);
  assert.equal(run.stderr, '');
  return { code: run.code, report: JSON.parse(run.stdout) as LintReport };
}

/** `rule severity` per finding of one DaemonSet. */
function fired(report: LintReport, name?: string): string[] {
  return report.findings.filter((f) => !name || f.daemonSet.name === name).map((f) => `${f.rule} ${f.severity}`);
}

const NOT_CHECKED_BARE = [
  'custom-taint-not-tolerated',
  'max-unavailable-too-low',
  'missing-os-selector',
  'pdb-missing',
];

describe("the DaemonSet guide's Fluent Bit manifest", () => {
  it('fires five warnings: no liveness probe, privilege escalation, writable root filesystem, no readiness probe, possibly root; exit 0', async () => {
    const { code, report } = await lintJson('-f', GUIDE);
    assert.equal(code, 0);
    // Resources, memory limit, priority class, selector, image tag and the NoSchedule-only
    // toleration already follow the guide's own production practice: nothing fires for them.
    assert.deepEqual(fired(report), [
      'liveness-probe-missing warning',
      'privilege-escalation-allowed warning',
      'read-only-root-filesystem warning',
      'readiness-probe-missing warning',
      'run-as-non-root warning',
    ]);
    assert.deepEqual(
      report.notChecked.map((n) => n.rule),
      NOT_CHECKED_BARE,
    );
    assert.deepEqual(
      report.findings.map((f) => f.path),
      [
        'spec.template.spec.containers[0].livenessProbe',
        'spec.template.spec.containers[0].securityContext.allowPrivilegeEscalation',
        'spec.template.spec.containers[0].securityContext.readOnlyRootFilesystem',
        'spec.template.spec.containers[0].readinessProbe',
        'spec.template.spec.containers[0].securityContext.runAsNonRoot',
      ],
    );
    assert.ok(report.findings.every((f) => f.location?.file === GUIDE && f.location.line === 1));
  });

  it('reads as a reviewer would want it (wide output)', async () => {
    const run = await runCli(['lint', '-f', GUIDE, '-o', 'wide', '--no-color']);
    assert.equal(
      run.stdout,
      `5 findings (0 errors, 5 warnings, 0 info) in 1 DaemonSet

logging/fluent-bit  ${GUIDE}:1
  ! warning  liveness-probe-missing        container fluent-bit has no liveness probe: if it hangs it keeps running on its node without doing its job, and the kubelet restarts it only when it exits
      at spec.template.spec.containers[0].livenessProbe
      fix: probe it with a command, since it declares no TCP port, failing only when it is stuck:
        livenessProbe:
          exec:
            command:
              - <a command that fails when the agent is unhealthy>
          periodSeconds: 10
          failureThreshold: 6
  ! warning  privilege-escalation-allowed  container fluent-bit allows privilege escalation and keeps the default capabilities (no drop: [ALL])
      at spec.template.spec.containers[0].securityContext.allowPrivilegeEscalation
      fix: disallow escalation and keep only the capabilities it uses:
        securityContext:
          allowPrivilegeEscalation: false
          capabilities:
            drop:
              - ALL
  ! warning  read-only-root-filesystem     container fluent-bit has a writable root filesystem: a collector writes only its buffer and position files, which belong on a hostPath or emptyDir
      at spec.template.spec.containers[0].securityContext.readOnlyRootFilesystem
      fix: make the root filesystem read-only and mount an emptyDir where the agent writes (e.g. /tmp):
        securityContext:
          readOnlyRootFilesystem: true
  ! warning  readiness-probe-missing       container fluent-bit has no readiness probe: it is Ready as soon as it starts, so a rolling update moves on from a broken version immediately and can break every node in turn
      at spec.template.spec.containers[0].readinessProbe
      fix: probe it with a command, since it declares no TCP port:
        readinessProbe:
          exec:
            command:
              - <a command that fails when the agent is unhealthy>
          periodSeconds: 10
          failureThreshold: 3
  ! warning  run-as-non-root               container fluent-bit may run as root (no runAsNonRoot or runAsUser: the image decides); a log collector that reads root-owned 0640 log files needs uid 0, but nothing else: then drop ALL capabilities and mount the logs readOnly
      at spec.template.spec.containers[0].securityContext.runAsNonRoot
      fix: run as non-root when the log files are readable, otherwise keep uid 0 with nothing else:
        securityContext:
          runAsNonRoot: true
          runAsUser: 65534

Not checked:
  - custom-taint-not-tolerated, max-unavailable-too-low, missing-os-selector: the input has no Node objects: lint a live cluster, or add the nodes to the input: \`kubectl get nodes -o yaml\`
  - pdb-missing: the input has no PodDisruptionBudget objects: add the PDB manifests to the input, or lint a live cluster
`,
    );
    assert.equal(run.code, 0);
  });

  it('fails a CI gate at --fail-on warning', async () => {
    assert.equal((await runCli(['lint', '-f', GUIDE, '--fail-on', 'warning'])).code, 1);
  });
});

describe('well-known node agents, as bare manifests', () => {
  const expected: Record<string, string[]> = {
    'calico-node': [
      'resources-requests-missing warning',
      'blanket-toleration info',
      'memory-limit-missing info',
      'privileged-container info',
      'read-only-root-filesystem info',
      'run-as-non-root info',
    ],
    cilium: [
      'resources-requests-missing warning',
      'blanket-toleration info',
      'memory-limit-missing info',
      'privilege-escalation-allowed info',
      'privilege-escalation-allowed info',
      'privileged-container info',
      'read-only-root-filesystem info',
      'run-as-non-root info',
    ],
    'kube-proxy': [
      'liveness-probe-missing warning',
      'memory-limit-missing warning',
      'readiness-probe-missing warning',
      'resources-requests-missing warning',
      'blanket-toleration info',
      'privileged-container info',
      'read-only-root-filesystem info',
      'run-as-non-root info',
    ],
    // node-exporter names no Service (it serves metrics and resolves nothing): no dnsPolicy finding.
    'node-exporter': ['priority-class-missing warning', 'privilege-escalation-allowed warning'],
    'fluent-bit': [
      'liveness-probe-missing warning',
      'privilege-escalation-allowed warning',
      'read-only-root-filesystem warning',
      'readiness-probe-missing warning',
      'run-as-non-root warning',
    ],
    'nvidia-device-plugin-daemonset': [
      'liveness-probe-missing warning',
      'memory-limit-missing warning',
      'read-only-root-filesystem warning',
      'readiness-probe-missing warning',
      'resources-requests-missing warning',
      'run-as-non-root info',
    ],
  };

  it('produce few, sensible findings and no error: exit 0', async () => {
    const { code, report } = await lintJson('-f', AGENTS);
    assert.equal(code, 0);
    assert.equal(report.daemonSets, 6);
    for (const [name, rules] of Object.entries(expected)) assert.deepEqual(fired(report, name), rules, name);
    assert.equal(report.summary!.error, 0);
  });

  it('privileged CNI agents and kube-proxy get one info finding each, never an error', async () => {
    const { report } = await lintJson('-f', AGENTS);
    const privileged = report.findings.filter((f) => f.rule === 'privileged-container');
    assert.deepEqual(
      privileged.map((f) => `${f.daemonSet.name} ${f.severity}`),
      ['calico-node info', 'cilium info', 'kube-proxy info'],
    );
    assert.match(
      privileged[0]!.message,
      /container calico-node, init container upgrade-ipam, init container install-cni, init container mount-bpffs: privileged, as a network \(CNI\) agent/,
    );
  });

  it('no replica, anti-affinity or topology-spread noise (Cilium carries a pod anti-affinity)', async () => {
    const { report } = await lintJson('-f', AGENTS);
    const ids = new Set(RULES.map((r) => r.meta.id));
    assert.ok(report.findings.every((f) => ids.has(f.rule)));
    assert.ok(
      report.findings.every((f) => !/replica|anti-?affinity|topology/i.test(`${f.rule} ${f.message} ${f.path}`)),
    );
  });
});

describe('the agents against a cluster inventory', () => {
  it('the cluster rules run: an untolerated NoExecute team taint, a Windows node, the PDBs', async () => {
    const { code, report } = await lintJson('-f', AGENTS, '-f', 'fixtures/manifests/cluster');
    assert.equal(code, 0);
    assert.deepEqual(report.notChecked, []);
    const taint = report.findings.filter((f) => f.rule === 'custom-taint-not-tolerated');
    // The log collector and node-exporter tolerate NoSchedule only: the guide's "common pitfall".
    assert.deepEqual(
      taint.map((f) => f.daemonSet.name),
      ['nvidia-device-plugin-daemonset', 'fluent-bit', 'node-exporter'],
    );
    assert.match(taint[1]!.message, /taint team=payments:NoExecute.*payments-1/);
    assert.match(taint[1]!.fix, /key: team\n\s+operator: Equal\n\s+value: payments\n\s+effect: NoExecute/);
    // Only the device plugin has no OS selector, and the Windows node is among its nodes.
    assert.deepEqual(
      report.findings.filter((f) => f.rule === 'missing-os-selector').map((f) => `${f.daemonSet.name}: ${f.message}`),
      [
        'nvidia-device-plugin-daemonset: the DaemonSet would run on nodes of 2 operating systems (5 linux, 1 windows): an image built for one never starts on the others',
      ],
    );
    // calico-node has its PDB; the other agents are told.
    assert.deepEqual(
      report.findings.filter((f) => f.rule === 'pdb-missing').map((f) => f.daemonSet.name),
      ['cilium', 'kube-proxy', 'nvidia-device-plugin-daemonset', 'fluent-bit', 'node-exporter'],
    );
    // Nine nodes roll in minutes even at maxUnavailable 1.
    assert.ok(!report.findings.some((f) => f.rule === 'max-unavailable-too-low'));
  });
});

describe('the demo dump', () => {
  it('lints every DaemonSet of a cluster dump with its nodes and PDBs; the CNI deadlock is an error', async () => {
    const { code, report } = await lintJson('-f', 'fixtures/demo');
    // calico-node does not tolerate not-ready:NoSchedule (the demo's NotReady node, issue 14 §5).
    assert.equal(code, 1);
    assert.deepEqual(
      report.findings.filter((f) => f.severity === 'error').map((f) => `${f.daemonSet.name} ${f.rule}`),
      ['calico-node not-ready-toleration-missing'],
    );
    assert.equal(report.daemonSets, 6);
    assert.deepEqual(
      report.notChecked.map((n) => n.rule),
      ['missing-os-selector'],
    );
    assert.match(report.notChecked[0]!.why, /all 9 node\(s\) of the input are linux\/amd64/);
    assert.deepEqual(
      report.findings
        .filter((f) => f.rule === 'custom-taint-not-tolerated')
        .map((f) => `${f.daemonSet.name} ${f.severity}`),
      ['node-exporter warning'],
    );
  });
});

describe('bad manifests', () => {
  it('report the errors the API server or the rollout would hit; exit 1', async () => {
    const { code, report } = await lintJson('-f', 'fixtures/manifests/bad');
    assert.equal(code, 1);
    assert.deepEqual(
      report.findings.filter((f) => f.severity === 'error').map((f) => `${f.daemonSet.name} ${f.rule}`),
      [
        'fluentd-elasticsearch deprecated-api-version',
        'metrics-relay privileged-container',
        'metrics-relay run-as-non-root',
        'metrics-relay selector-template-mismatch',
        'metrics-relay surge-with-host-port',
      ],
    );
    // The legacy manifest's missing selector is explained once, by deprecated-api-version.
    assert.ok(
      !report.findings.some(
        (f) => f.daemonSet.name === 'fluentd-elasticsearch' && f.rule === 'selector-template-mismatch',
      ),
    );
  });

  it('--fail-on none never fails', async () => {
    assert.equal((await runCli(['lint', '-f', 'fixtures/manifests/bad', '--fail-on', 'none'])).code, 0);
  });
});
