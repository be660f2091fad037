/**
 * An ESLint-style rule tester: tables of valid cases (no finding) and invalid cases (exactly the
 * listed findings), each run through the lint engine with only the rule under test.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { DaemonSet, Node, PodDisruptionBudget, PriorityClass, Pod } from '../../../src/model/k8s-types.js';
import type { LintReport, Severity } from '../../../src/model/results.js';
import { emptySnapshot, SNAPSHOT_KINDS, type ClusterSnapshot, type SnapshotKind } from '../../../src/model/snapshot.js';
import { lint } from '../../../src/lint/lint.js';
import type { LintRule } from '../../../src/lint/types.js';
import { daemonSet, type DaemonSetBuilder } from '../../builders.js';

const SEVERITY_RANK: Record<Severity, number> = { error: 2, warning: 1, info: 0 };

/** A DaemonSet that passes every rule: pinned image, requests and limits, non-root read-only without escalation or capabilities, probes. */
export function goodDaemonSet(name = 'agent', namespace = 'default'): DaemonSetBuilder {
  return daemonSet(name, namespace).container({
    name,
    image: `example/${name}:1.4.2`,
    resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { memory: '128Mi' } },
    securityContext: {
      runAsNonRoot: true,
      runAsUser: 65534,
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    },
    readinessProbe: { httpGet: { path: '/healthz', port: 8080 } },
    livenessProbe: { httpGet: { path: '/healthz', port: 8080 } },
  });
}

/** The input of a bare manifest: DaemonSets only, every other kind missing (as the file loader records it). */
export function bare(...daemonSets: DaemonSet[]): ClusterSnapshot {
  const s = emptySnapshot('files');
  s.daemonSets = daemonSets;
  s.missing = (Object.keys(SNAPSHOT_KINDS) as SnapshotKind[])
    .filter((k) => k !== 'DaemonSet')
    .map((kind) => ({ kind, reason: 'absent' as const }));
  return s;
}

/** A cluster input: every kind present (possibly empty). */
export function cluster(objects: {
  daemonSets?: DaemonSet[];
  nodes?: Node[];
  pods?: Pod[];
  podDisruptionBudgets?: PodDisruptionBudget[];
  priorityClasses?: PriorityClass[];
}): ClusterSnapshot {
  return { ...emptySnapshot('live'), ...objects };
}

export interface ExpectedFinding {
  severity: Severity;
  path: string;
  message?: RegExp;
  fix?: RegExp;
}

export interface RuleCase {
  name: string;
  ds: DaemonSet;
  /** The input around the DaemonSet; default: a bare manifest. */
  input?: (ds: DaemonSet) => ClusterSnapshot;
}

export interface InvalidCase extends RuleCase {
  findings: ExpectedFinding[];
}

export interface NotCheckedCase extends RuleCase {
  why: RegExp;
}

/** Lints one DaemonSet with one rule. */
export function runRule(rule: LintRule, c: RuleCase): LintReport {
  const snapshot = (c.input ?? ((ds: DaemonSet) => bare(ds)))(c.ds);
  if (!snapshot.daemonSets.includes(c.ds)) snapshot.daemonSets = [...snapshot.daemonSets, c.ds];
  return lint(snapshot, [c.ds], [rule]);
}

/** Declares the tests of a rule: valid cases report nothing, invalid ones exactly their findings. */
export function ruleTester(
  rule: LintRule,
  cases: { valid: RuleCase[]; invalid: InvalidCase[]; notChecked?: NotCheckedCase[] },
): void {
  describe(`rule ${rule.meta.id}`, () => {
    describe('valid', () => {
      for (const c of cases.valid) {
        it(c.name, () => {
          const report = runRule(rule, c);
          assert.deepEqual(report.notChecked, [], `${c.name}: the rule was not checked`);
          assert.deepEqual(
            report.findings.map((f) => `${f.severity} ${f.path}: ${f.message}`),
            [],
          );
        });
      }
    });
    describe('invalid', () => {
      for (const c of cases.invalid) {
        it(c.name, () => {
          const report = runRule(rule, c);
          assert.equal(
            report.findings.length,
            c.findings.length,
            report.findings.map((f) => `${f.severity} ${f.path}: ${f.message}`).join('\n'),
          );
          c.findings.forEach((want, i) => {
            const got = report.findings[i]!;
            assert.equal(got.rule, rule.meta.id);
            assert.equal(got.severity, want.severity, got.message);
            assert.equal(got.path, want.path);
            if (want.message) assert.match(got.message, want.message);
            if (want.fix) assert.match(got.fix, want.fix);
            assert.ok(got.fix.length > 0, 'every finding has a fix');
            assert.ok(
              SEVERITY_RANK[got.severity] <= SEVERITY_RANK[rule.meta.severity],
              'no finding is more severe than meta.severity',
            );
          });
        });
      }
    });
    if (cases.notChecked?.length) {
      describe('not checked', () => {
        for (const c of cases.notChecked!) {
          it(c.name, () => {
            const report = runRule(rule, c);
            assert.deepEqual(report.findings, []);
            assert.equal(report.notChecked.length, 1);
            assert.equal(report.notChecked[0]!.rule, rule.meta.id);
            assert.match(report.notChecked[0]!.why, c.why);
          });
        }
      });
    }
  });
}

/**
 * The ways a DaemonSet is pinned to Windows nodes, as published manifests write them: `spec.os.name`
 * (which the API server checks the Linux-only security fields against), the `kubernetes.io/os`
 * label the kubelet sets from its OS (nodeSelector or required node affinity), and HostProcess
 * containers, a Windows-only mode (sig-windows-tools' kube-proxy, vSphere CSI's Windows node plugin).
 */
export const WINDOWS_PINS: readonly (readonly [string, (b: DaemonSetBuilder) => DaemonSetBuilder])[] = [
  [
    'spec.os.name: windows',
    (b) =>
      b.with((d) => {
        Object.assign(d.spec!.template!.spec!, { os: { name: 'windows' } });
      }),
  ],
  ['nodeSelector kubernetes.io/os: windows', (b) => b.nodeSelector({ 'kubernetes.io/os': 'windows' })],
  [
    'required node affinity kubernetes.io/os In [windows]',
    (b) =>
      b.affinity({
        nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['windows'] }] }],
      }),
  ],
  [
    'HostProcess pod without an OS selector',
    (b) =>
      b.hostNetwork().with((d) => {
        d.spec!.template!.spec!.securityContext = {
          windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' },
        };
      }),
  ],
];

/** Required node affinity that admits Windows or Linux nodes: the pod may land on Linux, so it is judged. */
export function windowsOrLinux(b: DaemonSetBuilder): DaemonSetBuilder {
  return b.affinity({
    nodeSelectorTerms: [
      { matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['windows'] }] },
      { matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }] },
    ],
  });
}

/**
 * A Secrets Store CSI provider (the Vault and Azure provider shape): its socket in the secrets-store
 * driver's provider directory, no kubelet plugin directory, no registrar.
 */
export function secretsStoreProvider(
  image = 'hashicorp/vault-csi-provider:1.7.4',
  dir = '/var/run/secrets-store-csi-providers',
): DaemonSetBuilder {
  return goodDaemonSet('csi-provider', 'csi').with((d) => {
    const spec = d.spec!.template!.spec!;
    spec.containers![0]!.image = image;
    spec.containers![0]!.volumeMounts = [{ name: 'providervol', mountPath: '/provider' }];
    spec.volumes = [{ name: 'providervol', hostPath: { path: dir } }];
  });
}

/**
 * A device plugin (the kubelet's device-plugins socket directory) whose init container copies a
 * CNI plugin binary into the host's /opt/cni/bin (KubeVirt's macvtap-cni has this shape); with
 * `config`, the init container writes the CNI configuration (/etc/cni/net.d) too, as a CNI agent's
 * install-cni does.
 */
export const deviceWithCniInstaller = (config = false) =>
  goodDaemonSet('macvtap', 'kube-system').with((d) => {
    const spec = d.spec!.template!.spec!;
    const c = spec.containers![0]!;
    c.resources = { requests: { cpu: '60m', memory: '30Mi' } };
    delete c.securityContext;
    c.volumeMounts = [{ name: 'device-plugins', mountPath: '/var/lib/kubelet/device-plugins' }];
    spec.volumes = [
      { name: 'device-plugins', hostPath: { path: '/var/lib/kubelet/device-plugins' } },
      { name: 'cni-bin', hostPath: { path: '/opt/cni/bin' } },
      ...(config ? [{ name: 'cni-conf', hostPath: { path: '/etc/cni/net.d' } }] : []),
    ];
    spec.initContainers = [
      {
        name: 'install-cni',
        image: 'example/macvtap:1.0.0',
        command: ['cp', '/macvtap-cni', '/host/opt/cni/bin/macvtap'],
        volumeMounts: [
          { name: 'cni-bin', mountPath: '/host/opt/cni/bin' },
          ...(config ? [{ name: 'cni-conf', mountPath: '/host/etc/cni/net.d' }] : []),
        ],
      },
    ];
  });
