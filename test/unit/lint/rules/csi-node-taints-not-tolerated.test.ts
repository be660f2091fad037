import { csiNodeTaintsNotTolerated } from '../../../../src/lint/rules/csi-node-taints-not-tolerated.js';
import type { Toleration } from '../../../../src/model/k8s-types.js';
import { goodDaemonSet, ruleTester, secretsStoreProvider } from '../rule-tester.js';

/** A CSI node plugin: the registrar sidecar and the driver's kubelet plugin directory. */
function csiNode(tolerations: Toleration[] | undefined, image = 'example.com/csi/plugin:1.2.3') {
  return goodDaemonSet('csi-node', 'kube-system')
    .with((d) => {
      const spec = d.spec!.template!.spec!;
      spec.containers![0]!.image = image;
      spec.containers!.push({
        name: 'node-driver-registrar',
        image: 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.11.1',
      });
      spec.volumes = [{ name: 'plugin-dir', hostPath: { path: '/var/lib/kubelet/plugins/example.csi.io' } }];
      if (tolerations) spec.tolerations = tolerations;
    })
    .build();
}

ruleTester(csiNodeTaintsNotTolerated, {
  valid: [
    { name: 'every taint tolerated (the EBS, EFS and Azure Disk node plugins)', ds: csiNode([{ operator: 'Exists' }]) },
    { name: 'every NoSchedule taint tolerated', ds: csiNode([{ operator: 'Exists', effect: 'NoSchedule' }]) },
    { name: 'not a CSI node plugin', ds: goodDaemonSet().build() },
    {
      name: 'a storage image alone is not evidence of a node plugin (Longhorn manager)',
      ds: goodDaemonSet('longhorn-manager')
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.image = 'docker.io/longhornio/longhorn-manager:v1.12.1';
        })
        .build(),
    },
    {
      name: 'a Secrets Store CSI provider that tolerates every taint (the Azure Key Vault provider)',
      ds: secretsStoreProvider('mcr.microsoft.com/oss/v2/azure/secrets-store/provider-azure:v1.8.2')
        .tolerate({ operator: 'Exists' })
        .build(),
    },
  ],
  invalid: [
    {
      name: 'no toleration (ceph-csi rbdplugin, seaweedfs-csi)',
      ds: csiNode(undefined),
      findings: [
        {
          severity: 'warning',
          path: 'spec.template.spec.tolerations',
          message:
            /storage \(CSI\) node plugin \(hostPath \/var\/lib\/kubelet\/plugins\/example\.csi\.io .*\) tolerates no taint .*cannot mount its volumes/,
          fix: /tolerations:\n\s+- operator: Exists/,
        },
      ],
    },
    {
      name: 'only CriticalAddonsOnly (juicefs-csi)',
      ds: csiNode([{ key: 'CriticalAddonsOnly', operator: 'Exists' }]),
      findings: [
        {
          severity: 'warning',
          path: 'spec.template.spec.tolerations',
          message: /tolerates only \{key: CriticalAddonsOnly, operator: Exists\}/,
        },
      ],
    },
    {
      name: 'only NoExecute taints: NoSchedule ones still keep it off',
      ds: csiNode([{ operator: 'Exists', effect: 'NoExecute' }]),
      findings: [
        {
          severity: 'warning',
          path: 'spec.template.spec.tolerations',
          message: /tolerates only \{operator: Exists, effect: NoExecute\}/,
        },
      ],
    },
    {
      // The secrets-store node plugin dials the provider's socket on its own node at every mount
      // (kubernetes-sigs/secrets-store-csi-driver: --provider-volume), and tolerates every taint.
      name: 'a Secrets Store CSI provider without tolerations (the Vault provider)',
      ds: secretsStoreProvider().build(),
      findings: [
        {
          severity: 'warning',
          path: 'spec.template.spec.tolerations',
          message:
            /this Secrets Store CSI provider \(hostPath \/var\/run\/secrets-store-csi-providers \(provider socket\)\) tolerates no taint .*finds no provider socket to fetch their secrets from \(FailedMount\)$/,
          fix: /as the secrets-store CSI node plugin does:\ntolerations:\n\s+- operator: Exists/,
        },
      ],
    },
    {
      name: 'a provider whose image reads like a CSI driver, in the older directory: the directory decides',
      ds: secretsStoreProvider(
        'public.ecr.aws/aws-secrets-manager/secrets-store-csi-driver-provider-aws:2.2.1',
        '/etc/kubernetes/secrets-store-csi-providers',
      ).build(),
      findings: [
        {
          severity: 'warning',
          path: 'spec.template.spec.tolerations',
          message: /Secrets Store CSI provider \(hostPath \/etc\/kubernetes\/secrets-store-csi-providers /,
        },
      ],
    },
    {
      name: 'the secrets-store CSI driver itself mounts the provider directory too: still a CSI node plugin',
      ds: (() => {
        const ds = csiNode(undefined);
        ds.spec!.template!.spec!.volumes!.push({
          name: 'providers-dir',
          hostPath: { path: '/var/run/secrets-store-csi-providers' },
        });
        return ds;
      })(),
      findings: [
        {
          severity: 'warning',
          path: 'spec.template.spec.tolerations',
          message: /this storage \(CSI\) node plugin .*cannot mount its volumes/,
        },
      ],
    },
  ],
});
