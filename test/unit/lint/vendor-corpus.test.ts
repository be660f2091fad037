/**
 * Lint on real vendor manifests (issue 14 §3): the findings of every DaemonSet of
 * `../shared/vendor/corpus-a` (18 projects' manifests as published; sources in its SOURCES.md),
 * pinned by severity, rule and path, so that a rule change that adds noise, drops a true finding
 * or changes a severity fails here. The README's precision report classifies the warnings and
 * errors. The corpus lives beside the checkout and is read in place, never copied.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadFiles } from '../../../src/load/files.js';
import { lint } from '../../../src/lint/lint.js';

/** The repository root (tests compile to dist/test/unit/lint/). */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const CORPUS = join(ROOT, '..', 'shared', 'vendor', 'corpus-a');
const ABSENT = existsSync(CORPUS)
  ? undefined
  : `vendor corpus not found at ${CORPUS}: put shared/ beside the checkout to run these cases`;

/** Expected findings per manifest file and DaemonSet (namespace/name): "severity rule path", path under spec.template.spec. */
const EXPECTED: Record<string, Record<string, string[]>> = {
  'amazon-vpc-cni-aws-k8s-cni.yaml': {
    'kube-system/aws-node': [
      'warning liveness-probe-missing containers[1].livenessProbe',
      'warning readiness-probe-missing containers[1].readinessProbe',
      'warning resources-requests-missing containers[0].resources.requests.memory',
      'warning resources-requests-missing containers[1].resources.requests.memory',
      'info blanket-toleration tolerations[0]',
      'info memory-limit-missing containers[0].resources.limits.memory',
      'info memory-limit-missing containers[1].resources.limits.memory',
      'info privilege-escalation-allowed containers[0].securityContext.allowPrivilegeEscalation',
      'info privileged-container containers[1].securityContext.privileged',
      'info read-only-root-filesystem containers[0].securityContext.readOnlyRootFilesystem',
      'info run-as-non-root containers[0].securityContext.runAsNonRoot',
    ],
  },
  'aws-ebs-csi-driver-node.yaml': {
    'default/ebs-csi-node': [
      'info blanket-toleration tolerations[0]',
      'info privilege-escalation-allowed containers[1].securityContext.capabilities',
      'info privilege-escalation-allowed containers[2].securityContext.capabilities',
      'info privileged-container containers[0].securityContext.privileged',
      'info run-as-non-root containers[0].securityContext.runAsNonRoot',
    ],
  },
  'calico-calico.yaml': {
    'kube-system/calico-node': [
      'warning image-tag-mutable containers[0].image',
      'warning image-tag-mutable initContainers[0].image',
      'warning image-tag-mutable initContainers[1].image',
      'warning image-tag-mutable initContainers[2].image',
      'warning resources-requests-missing containers[0].resources.requests.memory',
      'info blanket-toleration tolerations[2]',
      'info memory-limit-missing containers[0].resources.limits.memory',
      'info pdb-missing spec.template.metadata.labels',
      'info privileged-container containers[0].securityContext.privileged',
      'info read-only-root-filesystem containers[0].securityContext.readOnlyRootFilesystem',
      'info run-as-non-root containers[0].securityContext.runAsNonRoot',
    ],
  },
  'csi-driver-nfs-csi-nfs-node.yaml': {
    'kube-system/csi-nfs-node': [
      'warning image-tag-mutable containers[2].image',
      'warning readiness-probe-missing containers[2].readinessProbe',
      'info blanket-toleration tolerations[0]',
      'info privilege-escalation-allowed containers[0].securityContext.allowPrivilegeEscalation',
      'info privilege-escalation-allowed containers[1].securityContext.allowPrivilegeEscalation',
      'info privileged-container containers[2].securityContext.privileged',
      'info read-only-root-filesystem containers[0].securityContext.readOnlyRootFilesystem',
      'info run-as-non-root containers[0].securityContext.runAsNonRoot',
    ],
  },
  'falco-daemonset.yaml': {
    'default/falco': [
      'warning memory-limit-missing containers[1].resources.limits.memory',
      'warning priority-class-missing priorityClassName',
      'warning privilege-escalation-allowed containers[1].securityContext.allowPrivilegeEscalation',
      'warning privilege-escalation-allowed initContainers[1].securityContext.allowPrivilegeEscalation',
      'warning read-only-root-filesystem containers[0].securityContext.readOnlyRootFilesystem',
      'warning read-only-root-filesystem containers[1].securityContext.readOnlyRootFilesystem',
      'warning read-only-root-filesystem initContainers[1].securityContext.readOnlyRootFilesystem',
      'warning resources-requests-missing containers[1].resources.requests',
      'info privileged-container containers[0].securityContext.privileged',
      'info read-only-root-filesystem initContainers[0].securityContext.readOnlyRootFilesystem',
      'info run-as-non-root containers[0].securityContext.runAsNonRoot',
    ],
  },
  'flannel-kube-flannel.yaml': {
    'kube-flannel/kube-flannel-ds': [
      'info memory-limit-missing containers[0].resources.limits.memory',
      'info privilege-escalation-allowed containers[0].securityContext.allowPrivilegeEscalation',
      'info privilege-escalation-allowed initContainers[0].securityContext.allowPrivilegeEscalation',
      'info privilege-escalation-allowed initContainers[1].securityContext.allowPrivilegeEscalation',
      'info read-only-root-filesystem containers[0].securityContext.readOnlyRootFilesystem',
      'info run-as-non-root containers[0].securityContext.runAsNonRoot',
    ],
  },
  'fluent-bit-kubernetes-logging-fluent-bit-ds.yaml': {
    'logging/fluent-bit': [
      'warning liveness-probe-missing containers[0].livenessProbe',
      'warning memory-limit-missing containers[0].resources.limits.memory',
      'warning priority-class-missing priorityClassName',
      'warning privilege-escalation-allowed containers[0].securityContext.allowPrivilegeEscalation',
      'warning read-only-root-filesystem containers[0].securityContext.readOnlyRootFilesystem',
      'warning readiness-probe-missing containers[0].readinessProbe',
      'warning resources-requests-missing containers[0].resources.requests',
      'info blanket-toleration tolerations[1]',
      'info run-as-non-root containers[0].securityContext.runAsNonRoot',
    ],
  },
  'fluentd-kubernetes-daemonset-fluentd-daemonset-elasticsearch-rbac.yaml': {
    'kube-system/fluentd': [
      'error credential-in-env containers[0].env[7].value',
      'warning image-tag-mutable containers[0].image',
      'warning liveness-probe-missing containers[0].livenessProbe',
      'warning priority-class-missing priorityClassName',
      'warning privilege-escalation-allowed containers[0].securityContext.allowPrivilegeEscalation',
      'warning read-only-root-filesystem containers[0].securityContext.readOnlyRootFilesystem',
      'warning readiness-probe-missing containers[0].readinessProbe',
      'warning selector-mutable-label spec.selector.matchLabels',
      'info run-as-non-root containers[0].securityContext.runAsNonRoot',
    ],
  },
  'kube-prometheus-nodeExporter-daemonset.yaml': {
    'monitoring/node-exporter': [
      'warning liveness-probe-missing containers[0].livenessProbe',
      'warning readiness-probe-missing containers[0].readinessProbe',
      'info blanket-toleration tolerations[0]',
    ],
  },
  'kube-router-kubeadm-kuberouter.yaml': {
    'kube-system/kube-router': [
      'warning image-tag-mutable containers[0].image',
      'warning image-tag-mutable initContainers[0].image',
      'warning readiness-probe-missing containers[0].readinessProbe',
      'info blanket-toleration tolerations[2]',
      'info memory-limit-missing containers[0].resources.limits.memory',
      'info privilege-escalation-allowed initContainers[0].securityContext.allowPrivilegeEscalation',
      'info privileged-container containers[0].securityContext.privileged',
      'info read-only-root-filesystem containers[0].securityContext.readOnlyRootFilesystem',
      'info run-as-non-root containers[0].securityContext.runAsNonRoot',
    ],
  },
  'kubernetes-nodelocaldns.yaml': {
    'kube-system/node-local-dns': [
      'warning privilege-escalation-allowed containers[0].securityContext.allowPrivilegeEscalation',
      'warning read-only-root-filesystem containers[0].securityContext.readOnlyRootFilesystem',
      'warning readiness-probe-missing containers[0].readinessProbe',
      'info blanket-toleration tolerations[1]',
      'info memory-limit-missing containers[0].resources.limits.memory',
      'info run-as-non-root containers[0].securityContext.runAsNonRoot',
    ],
  },
  'kured-kured-ds.yaml': {
    'kube-system/kured': [
      'warning liveness-probe-missing containers[0].livenessProbe',
      'warning memory-limit-missing containers[0].resources.limits.memory',
      'warning priority-class-missing priorityClassName',
      'warning readiness-probe-missing containers[0].readinessProbe',
      'warning resources-requests-missing containers[0].resources.requests',
      'info privileged-container containers[0].securityContext.privileged',
      'info run-as-non-root containers[0].securityContext.runAsNonRoot',
    ],
  },
  'local-static-provisioner-default_example_provisioner_generated.yaml': {
    'default/local-volume-provisioner': [
      'warning liveness-probe-missing containers[0].livenessProbe',
      'warning memory-limit-missing containers[0].resources.limits.memory',
      'warning priority-class-missing priorityClassName',
      'warning read-only-root-filesystem containers[0].securityContext.readOnlyRootFilesystem',
      'warning readiness-probe-missing containers[0].readinessProbe',
      'warning resources-requests-missing containers[0].resources.requests',
      'info privileged-container containers[0].securityContext.privileged',
      'info run-as-non-root containers[0].securityContext.runAsNonRoot',
    ],
  },
  'metallb-metallb-native.yaml': {
    'metallb-system/speaker': [
      'warning image-tag-mutable containers[0].image',
      'warning memory-limit-missing containers[0].resources.limits.memory',
      'warning priority-class-missing priorityClassName',
      'warning resources-requests-missing containers[0].resources.requests',
      'info run-as-non-root containers[0].securityContext.runAsNonRoot',
    ],
  },
  'multus-multus-daemonset.yaml': {
    'kube-system/kube-multus-ds': [
      'warning image-tag-mutable containers[0].image',
      'warning image-tag-mutable initContainers[0].image',
      'warning liveness-probe-missing containers[0].livenessProbe',
      'warning priority-class-missing priorityClassName',
      'warning readiness-probe-missing containers[0].readinessProbe',
      'info blanket-toleration tolerations[1]',
      'info privileged-container containers[0].securityContext.privileged',
      'info read-only-root-filesystem containers[0].securityContext.readOnlyRootFilesystem',
      'info run-as-non-root containers[0].securityContext.runAsNonRoot',
    ],
  },
  'node-problem-detector-node-problem-detector.yaml': {
    'kube-system/node-problem-detector': [
      'warning liveness-probe-missing containers[0].livenessProbe',
      'warning priority-class-missing priorityClassName',
      'warning read-only-root-filesystem containers[0].securityContext.readOnlyRootFilesystem',
      'warning readiness-probe-missing containers[0].readinessProbe',
      'info blanket-toleration tolerations[1]',
      'info privileged-container containers[0].securityContext.privileged',
      'info run-as-non-root containers[0].securityContext.runAsNonRoot',
    ],
  },
  'nvidia-k8s-device-plugin-nvidia-device-plugin.yaml': {
    'kube-system/nvidia-device-plugin-daemonset': [
      'warning liveness-probe-missing containers[0].livenessProbe',
      'warning memory-limit-missing containers[0].resources.limits.memory',
      'warning read-only-root-filesystem containers[0].securityContext.readOnlyRootFilesystem',
      'warning readiness-probe-missing containers[0].readinessProbe',
      'warning resources-requests-missing containers[0].resources.requests',
      'info run-as-non-root containers[0].securityContext.runAsNonRoot',
    ],
  },
  'weave-weave-daemonset-k8s-1.11.yaml': {
    'kube-system/weave-net': [
      'warning image-tag-mutable containers[0].image',
      'warning image-tag-mutable containers[1].image',
      'warning image-tag-mutable initContainers[0].image',
      'warning liveness-probe-missing containers[0].livenessProbe',
      'warning liveness-probe-missing containers[1].livenessProbe',
      'warning resources-requests-missing containers[0].resources.requests.memory',
      'warning resources-requests-missing containers[1].resources.requests.memory',
      'info blanket-toleration tolerations[1]',
      'info memory-limit-missing containers[0].resources.limits.memory',
      'info memory-limit-missing containers[1].resources.limits.memory',
      'info privileged-container containers[0].securityContext.privileged',
      'info read-only-root-filesystem containers[0].securityContext.readOnlyRootFilesystem',
      'info readiness-probe-missing containers[1].readinessProbe',
      'info run-as-non-root containers[0].securityContext.runAsNonRoot',
    ],
  },
};

const noStdin = async (): Promise<string> => '';

// Without the corpus, one skipped test says where it was looked for; with it, one test per manifest.
if (ABSENT) test('lint on vendor corpus-a', { skip: ABSENT }, () => {});
else registerCorpusTests();

function registerCorpusTests(): void {
  for (const [file, want] of Object.entries(EXPECTED)) {
    test(`lint on vendor corpus-a: ${file}`, async () => {
      const snapshot = await loadFiles([join(CORPUS, file)], noStdin);
      const report = lint(snapshot, snapshot.daemonSets);
      const got: Record<string, string[]> = {};
      for (const f of report.findings) {
        (got[`${f.daemonSet.namespace}/${f.daemonSet.name}`] ??= []).push(
          `${f.severity} ${f.rule} ${f.path.replace('spec.template.spec.', '')}`,
        );
      }
      assert.deepEqual(got, want);
      assert.deepEqual(
        (report.notes ?? []).filter((n) => /could not check/.test(n)),
        [],
        'no rule failed on the manifest',
      );
    });
  }

  test('the pinned table covers every manifest of corpus-a', () => {
    assert.deepEqual(
      Object.keys(EXPECTED).sort(),
      readdirSync(CORPUS)
        .filter((f) => /\.ya?ml$/.test(f))
        .sort(),
    );
  });
}
