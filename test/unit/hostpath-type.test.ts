// A hostPath volume whose `type` the kubelet checks before it mounts it (kubernetes v1.35.4
// pkg/volume/hostpath/host_path.go#checkTypeInternal, its host_path_test.go TestHostPathTypeCheckerInternal):
// Directory, File, Socket, CharDevice and BlockDevice must exist as such on the node, and the failure
// reaches the pod as FailedMount "MountVolume.SetUp failed for volume … : hostPath type check failed:
// <path> is not a directory". The path is on the node, outside any object. Under a kubelet root
// directory (--root-dir, /var/lib/kubelet by default: cmd/kubelet/app/options/options.go) it is most
// often a manifest written for another distribution's root (democratic-csi#68 and #75, k0s#810,
// kadalu#239, minio/directpv#11).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { hostPathTypeFailure, kubeletRootOf, nodeKubeletRoot } from '../../src/k8s/hostpath.js';
import { missingVolumeObject } from '../../src/k8s/volume-objects.js';
import { diagnoseAllNodes } from '../../src/analyze/placement/index.js';
import { NOW, daemonSet, event, indexOf, node, pod } from '../builders.js';

describe('hostPath type check failure, parsed', () => {
  const cases: { message: string; want: ReturnType<typeof hostPathTypeFailure> }[] = [
    {
      message:
        'MountVolume.SetUp failed for volume "registration-dir" : hostPath type check failed: /var/lib/kubelet/plugins_registry is not a directory',
      want: { volume: 'registration-dir', path: '/var/lib/kubelet/plugins_registry', want: 'a directory' },
    },
    {
      message:
        'MountVolume.SetUp failed for volume "docker-sock" : hostPath type check failed: /var/run/docker.sock is not a socket file',
      want: { volume: 'docker-sock', path: '/var/run/docker.sock', want: 'a socket file' },
    },
    {
      message: 'hostPath type check failed: /dev/sdb is not a block device',
      want: { path: '/dev/sdb', want: 'a block device' },
    },
    { message: 'MountVolume.SetUp failed for volume "config" : configmap "agent" not found', want: undefined },
  ];
  for (const c of cases)
    test(c.message, () => {
      assert.deepEqual(hostPathTypeFailure(c.message), c.want);
    });

  test('kubelet roots: the longest known root a path lies under', () => {
    assert.equal(kubeletRootOf('/var/lib/kubelet/plugins'), '/var/lib/kubelet');
    assert.equal(
      kubeletRootOf('/var/snap/microk8s/common/var/lib/kubelet/pods'),
      '/var/snap/microk8s/common/var/lib/kubelet',
    );
    assert.equal(kubeletRootOf('/var/lib/k0s/kubelet/plugins_registry'), '/var/lib/k0s/kubelet');
    assert.equal(kubeletRootOf('/var/lib/kubeletx'), undefined);
    assert.equal(kubeletRootOf('/data'), undefined);
  });

  test("a node's distribution, from its kubelet version or label", () => {
    const k3s = node('a').build();
    k3s.status = { ...k3s.status, nodeInfo: { ...(k3s.status?.nodeInfo ?? {}), kubeletVersion: 'v1.20.4+k3s1' } };
    assert.deepEqual(nodeKubeletRoot(k3s), { name: 'k3s', root: '/var/lib/kubelet' });
    assert.equal(nodeKubeletRoot(node('b').build()), undefined);
    assert.equal(nodeKubeletRoot(node('c').label('microk8s.io/cluster', 'true').build())?.name, 'MicroK8s');
  });
});

describe('a pod stuck creating on a hostPath type check', () => {
  const cases: { name: string; path: string; kubelet?: string; label?: string; fix: RegExp; not?: RegExp }[] = [
    {
      name: "another distribution's root on a k3s node: the node's root is named",
      path: '/var/snap/microk8s/common/var/lib/kubelet/plugins_registry',
      kubelet: 'v1.20.4+k3s1',
      fix: /under \/var\/snap\/microk8s\/common\/var\/lib\/kubelet, but the node runs k3s, whose kubelet keeps its files under \/var\/lib\/kubelet/,
    },
    {
      name: 'the default root on a k0s node',
      path: '/var/lib/kubelet/plugins_registry',
      kubelet: 'v1.25.4+k0s',
      fix: /the node runs k0s, whose kubelet keeps its files under \/var\/lib\/k0s\/kubelet/,
    },
    {
      name: 'the default root on a MicroK8s node (by its label)',
      path: '/var/lib/kubelet/pods',
      label: 'microk8s.io/cluster',
      fix: /the node runs MicroK8s, whose kubelet keeps its files under \/var\/snap\/microk8s\/common\/var\/lib\/kubelet/,
    },
    {
      name: 'a kubelet root on a node that does not say its distribution: the mismatch is offered, not asserted',
      path: '/var/lib/kubelet/plugins_registry',
      fix: /lies under the kubelet directory \/var\/lib\/kubelet: if the node's kubelet uses another root \(--root-dir/,
      not: /the node runs/,
    },
    {
      name: 'a matching root: no mismatch claimed',
      path: '/var/lib/kubelet/plugins_registry',
      kubelet: 'v1.20.4+k3s1',
      fix: /if the node's kubelet uses another root/,
      not: /the node runs/,
    },
    {
      name: 'a path outside any kubelet root: create it or fix the path',
      path: '/data/valheim',
      fix: /on node n1, \/data\/valheim does not exist or is not a directory.*outside any object.*create it there, or fix the path/,
      not: /kubelet directory/,
    },
  ];
  for (const c of cases)
    test(c.name, () => {
      const ds = daemonSet('csi-node', 'storage').build();
      const nb = node('n1');
      if (c.label) nb.label(c.label, 'true');
      const n1 = nb.build();
      if (c.kubelet)
        n1.status = { ...n1.status, nodeInfo: { ...(n1.status?.nodeInfo ?? {}), kubeletVersion: c.kubelet } };
      const p = pod('csi-node-n1', 'storage').ofDaemonSet(ds, 'n1').on('n1').waiting('ContainerCreating').build();
      const index = indexOf({
        nodes: [n1],
        daemonSets: [ds],
        pods: [p],
        events: [
          event(
            'Pod',
            p,
            'FailedMount',
            `MountVolume.SetUp failed for volume "vol" : hostPath type check failed: ${c.path} is not a directory`,
          ),
        ],
      });
      const reason = diagnoseAllNodes(index, ds, NOW, 600)[0]!.reasons.find((r) => r.code === 'ContainerCreating');
      assert.ok(reason);
      assert.match(
        reason.message,
        new RegExp(`hostPath volume vol: ${c.path.replace(/[/.]/g, '\\$&')} is not a directory on the node`),
      );
      assert.match(reason.fix, c.fix);
      if (c.not) assert.doesNotMatch(reason.fix, c.not);
    });
});

// A ConfigMap or Secret volume whose object is missing: the kubelet's SetUpAt fails with the API's
// NotFound unless the volume is optional (kubernetes v1.35.4 pkg/volume/configmap/configmap.go
// #SetUpAt, pkg/volume/secret/secret.go#SetUpAt; the TestPluginOptional of configmap_test.go and secret_test.go
// covers the optional side); helm/charts#5190, a DaemonSet mounting a ConfigMap its chart did not create.
describe('a pod stuck creating on a missing ConfigMap or Secret volume', () => {
  const cases: { message: string; want: ReturnType<typeof missingVolumeObject>; text?: RegExp; fix?: RegExp }[] = [
    {
      message: 'MountVolume.SetUp failed for volume "config" : configmaps "agent-config" not found',
      want: { volume: 'config', kind: 'ConfigMap', name: 'agent-config' },
      text: /volume config: ConfigMap agents\/agent-config does not exist/,
      fix: /create ConfigMap agent-config in namespace agents.*configMap\.optional: true.*the kubelet retries the mount/,
    },
    {
      message: 'MountVolume.SetUp failed for volume "certs" : secret "agent-tls" not found',
      want: { volume: 'certs', kind: 'Secret', name: 'agent-tls' },
      text: /volume certs: Secret agents\/agent-tls does not exist/,
      fix: /create Secret agent-tls in namespace agents.*secret\.optional: true/,
    },
    {
      message: 'Error: configmap "agent-config" not found',
      want: undefined,
    },
  ];
  for (const c of cases)
    test(c.message, () => {
      assert.deepEqual(missingVolumeObject(c.message), c.want);
      if (!c.want) return;
      const ds = daemonSet('agent', 'agents').build();
      const p = pod('agent-n1', 'agents').ofDaemonSet(ds, 'n1').on('n1').waiting('ContainerCreating').build();
      const index = indexOf({
        nodes: [node('n1').build()],
        daemonSets: [ds],
        pods: [p],
        events: [event('Pod', p, 'FailedMount', c.message)],
      });
      const reason = diagnoseAllNodes(index, ds, NOW, 600)[0]!.reasons.find((r) => r.code === 'ContainerCreating');
      assert.ok(reason);
      assert.match(reason.message, c.text!);
      assert.match(reason.fix, c.fix!);
    });
});
