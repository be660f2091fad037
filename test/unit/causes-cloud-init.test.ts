// A kubelet started with --cloud-provider=external taints its Node
// node.cloudprovider.kubernetes.io/uninitialized (kubernetes v1.35.4
// pkg/kubelet/kubelet_node_status.go#initialNode), and only the cloud controller manager's node
// controller removes it (staging/src/k8s.io/cloud-provider/controllers/node/node_controller.go
// #syncNode; its node_controller_test.go TestNodeInitialized: the taint is gone once the node is
// initialised). A network agent that does not tolerate it waits for the cloud controller manager;
// since v1.18 the network-not-ready condition is a NoSchedule taint too, so a cloud controller
// manager that does not tolerate not-ready waits for the network: neither starts
// (kubernetes/cloud-provider-vsphere#334, fixed by letting the manager on, PR #339).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { causesOnNode } from '../../src/analyze/causes/index.js';
import { isCloudControllerManager } from '../../src/analyze/causes/cloud-init.js';
import { scan } from '../../src/analyze/scan.js';
import type { DaemonSet } from '../../src/model/k8s-types.js';
import { NOW, daemonSet, indexOf, node, pod } from '../builders.js';

const CNI_MESSAGE =
  'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized';
const UNINIT = 'node.cloudprovider.kubernetes.io/uninitialized';

const cni = daemonSet('kube-router', 'kube-system')
  .hostNetwork()
  .tolerate({ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' })
  .with((d) => {
    d.spec!.template!.spec!.volumes = [{ name: 'cni-conf-dir', hostPath: { path: '/etc/cni/net.d' } }];
  })
  .build();

function ccm(tolerations: { key?: string; operator?: string; value?: string; effect?: string }[]): DaemonSet {
  return daemonSet('cloud-controller-manager', 'kube-system')
    .hostNetwork()
    .tolerate({ key: UNINIT, value: 'true', effect: 'NoSchedule' }, ...tolerations)
    .with((d) => {
      d.spec!.template!.spec!.containers![0]!.args = ['--cloud-provider=vsphere'];
    })
    .build();
}

const fresh = () =>
  node('n1')
    .notReady('False', CNI_MESSAGE)
    .taint(UNINIT, 'true', 'NoSchedule')
    .taint('node.kubernetes.io/not-ready', undefined, 'NoSchedule')
    .build();

describe('the network agent kept off by the uninitialized taint', () => {
  test('CloudProviderNotInitialized: the cloud controller manager kept off by not-ready: the deadlock, and the manager let on', () => {
    const manager = ccm([]);
    const index = indexOf({ nodes: [fresh()], daemonSets: [cni, manager], pods: [] });
    const causes = causesOnNode(index, [cni], 'n1', { now: NOW });
    assert.equal(causes[0]!.code, 'CloudProviderNotInitialized');
    assert.equal(causes[0]!.cause.name, 'cloud-controller-manager');
    assert.match(
      causes[0]!.summary,
      /kube-router has no pod there \(untolerated taint node\.cloudprovider\.kubernetes\.io\/uninitialized=true:NoSchedule\) → the cloud controller manager removes that taint/,
    );
    assert.match(
      causes[0]!.summary,
      /cloud-controller-manager has no running pod on any node \(on n1: untolerated taint node\.kubernetes\.io\/not-ready:NoSchedule\) → neither can start/,
    );
    assert.match(
      causes[0]!.fix,
      /kubectl patch daemonset cloud-controller-manager -n kube-system --type json .*"key":"node\.kubernetes\.io\/not-ready","operator":"Exists","effect":"NoSchedule"/,
    );
    assert.ok(!causes.some((c) => c.code === 'NetworkAgentNotRunning'), JSON.stringify(causes.map((c) => c.code)));
    // scan: the manager it names is not Healthy 0/0, though it selects no node by its own rows.
    const entry = scan(index, [cni, manager], NOW, 'all namespaces').daemonSets.find(
      (d) => d.name === 'cloud-controller-manager',
    );
    assert.equal(entry?.health, 'Degraded');
  });

  test('the cloud controller manager runs elsewhere: it has not initialised the node, read its logs', () => {
    const manager = ccm([{ operator: 'Exists' }]);
    const cp = node('cp1').build();
    const index = indexOf({
      nodes: [cp, fresh()],
      daemonSets: [cni, manager],
      pods: [
        pod('ccm-cp1', 'kube-system').ofDaemonSet(manager, 'cp1').on('cp1').ready().build(),
        pod('kube-router-cp1', 'kube-system').ofDaemonSet(cni, 'cp1').on('cp1').ready().build(),
      ],
    });
    const causes = causesOnNode(index, [cni], 'n1', { now: NOW });
    assert.equal(causes[0]!.code, 'CloudProviderNotInitialized');
    assert.match(causes[0]!.summary, /cloud-controller-manager runs \(on cp1\) but has not initialised it/);
    assert.match(causes[0]!.fix, /kubectl logs -n kube-system ccm-cp1.*outside any object/);
  });

  test('no cloud controller manager in the input: said, and where to look', () => {
    const index = indexOf({ nodes: [fresh()], daemonSets: [cni], pods: [] });
    const causes = causesOnNode(index, [cni], 'n1', { now: NOW });
    assert.equal(causes[0]!.code, 'CloudProviderNotInitialized');
    assert.deepEqual(causes[0]!.cause, { kind: 'Node', name: 'n1' });
    assert.match(causes[0]!.fix, /grep cloud-controller-manager; it may run as a Deployment/);
  });

  test('kept off by not-ready alone: the network agent is the cause, as before', () => {
    const strict = daemonSet('calico-node', 'kube-system')
      .hostNetwork()
      .with((d) => {
        d.spec!.template!.spec!.volumes = [{ name: 'cni-net-dir', hostPath: { path: '/etc/cni/net.d' } }];
      })
      .build();
    const n1 = node('n1')
      .notReady('False', CNI_MESSAGE)
      .taint('node.kubernetes.io/not-ready', undefined, 'NoSchedule')
      .build();
    const index = indexOf({ nodes: [n1], daemonSets: [strict, ccm([])], pods: [] });
    const causes = causesOnNode(index, [strict], 'n1', { now: NOW });
    assert.equal(causes[0]!.code, 'NetworkAgentNotRunning');
  });
});

describe('which DaemonSets run a cloud controller manager', () => {
  const cases: { name: string; edit: (d: DaemonSet) => void; want: boolean }[] = [
    { name: 'by its name', edit: (d) => (d.metadata!.name = 'aws-cloud-controller-manager'), want: true },
    {
      name: 'by its image',
      edit: (d) =>
        (d.spec!.template!.spec!.containers![0]!.image =
          'registry.k8s.io/provider-aws/cloud-controller-manager:v1.30.0'),
      want: true,
    },
    {
      name: 'by --cloud-provider=<name>',
      edit: (d) => (d.spec!.template!.spec!.containers![0]!.args = ['--cloud-provider=openstack']),
      want: true,
    },
    {
      name: 'not by --cloud-provider=external (the kubelet’s side)',
      edit: (d) => (d.spec!.template!.spec!.containers![0]!.args = ['--cloud-provider=external']),
      want: false,
    },
    { name: 'not an ordinary agent', edit: () => undefined, want: false },
  ];
  for (const c of cases)
    test(c.name, () => {
      const d = daemonSet('agent', 'kube-system').build();
      c.edit(d);
      assert.equal(isCloudControllerManager(d), c.want);
    });
});
