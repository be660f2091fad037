import { csiNodeTaintsNotTolerated } from '../../../../src/lint/rules/csi-node-taints-not-tolerated.js';
import type { Toleration } from '../../../../src/model/k8s-types.js';
import { goodDaemonSet, ruleTester } from '../rule-tester.js';

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
  ],
});
