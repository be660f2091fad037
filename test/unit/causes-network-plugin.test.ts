// A sandbox the CNI plugin refuses is not a network that is not ready. The kubelet starts no
// sandbox for a non-hostNetwork pod while the runtime reports NetworkReady=false (kubernetes
// v1.35.4 pkg/kubelet/kubelet.go#syncPod: the NetworkNotReady event); once it is ready, the
// plugin's ADD runs inside RunPodSandbox and its refusal is the FailedCreatePodSandBox event
// (pkg/kubelet/kuberuntime/kuberuntime_sandbox.go#createPodSandbox). The network chain names the
// plugin's own error then, and does not send the reader to /etc/cni/net.d: e.g. the VPC CNI's
// "failed to assign an IP address to container" (aws/amazon-vpc-cni-k8s#1204, #668: the address
// pool), Calico's "stat /var/lib/calico/nodename" while calico-node is not running
// (kubernetes/kubernetes#62451).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pluginError } from '../../src/analyze/causes/network.js';
import { causesOnNode } from '../../src/analyze/causes/index.js';
import type { DaemonSet, Pod } from '../../src/model/k8s-types.js';
import { NOW, daemonSet, event, indexOf, node, pod } from '../builders.js';

const VPC =
  'Failed create pod sandbox: rpc error: code = Unknown desc = failed to set up sandbox container "9d0c" network for pod "app-x": networkPlugin cni failed to set up pod "app-x_infra" network: add cmd: failed to assign an IP address to container';
const CALICO =
  'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "80e85e": plugin type="calico" failed (add): stat /var/lib/calico/nodename: no such file or directory: check that the calico/node container is running and has mounted /var/lib/calico/';
const NOT_READY =
  'network is not ready: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized';

describe('pluginError: the CNI plugin’s words in a sandbox refusal', () => {
  const cases: { name: string; texts: string[]; want: string | undefined }[] = [
    {
      name: 'dockershim wording (NetworkPlugin cni ... network: <error>)',
      texts: [VPC],
      want: 'add cmd: failed to assign an IP address to container',
    },
    {
      name: 'containerd wording (plugin type=... failed (add): <error>), long errors shortened',
      texts: [CALICO],
      want: 'stat /var/lib/calico/nodename: no such file or directory: check that the calico/node container is...',
    },
    {
      name: 'an event line with its count',
      texts: [`event FailedCreatePodSandBox: ${VPC} (x3900)`],
      want: 'add cmd: failed to assign an IP address to container',
    },
    { name: 'network not ready is not a plugin refusal', texts: [NOT_READY], want: undefined },
    { name: 'no sandbox text', texts: ['containers are not starting after 15h'], want: undefined },
  ];
  for (const c of cases) test(c.name, () => assert.equal(pluginError(c.texts), c.want));
});

const agent = (name: string) =>
  daemonSet(name, 'kube-system')
    .hostNetwork()
    .with((d) => {
      d.spec!.template!.spec!.volumes = [{ name: 'cni-net-dir', hostPath: { path: '/etc/cni/net.d' } }];
    })
    .build();
const app = daemonSet('xyz-agent', 'infra').build();

function agentPod(ds: DaemonSet, n: string, ready: boolean): Pod {
  const b = pod(`${ds.metadata!.name}-${n}`, 'kube-system').ofDaemonSet(ds, n).on(n);
  return ready
    ? b.ready().build()
    : b
        .waiting('CrashLoopBackOff', 'back-off', { restartCount: 5, lastTerminated: { reason: 'Error', exitCode: 1 } })
        .created(3600)
        .build();
}

describe('network chain on a refused sandbox', () => {
  const cases: {
    name: string;
    agentReady: boolean;
    message: string;
    reason: string;
    wantCode: string;
    wantHead: RegExp;
    fixHasCniDir: boolean;
  }[] = [
    {
      name: 'the agent runs and the plugin refuses (address pool): the plugin’s error, its logs, no /etc/cni/net.d',
      agentReady: true,
      message: VPC,
      reason: 'FailedCreatePodSandBox',
      wantCode: 'NetworkNotReadyAgentRunning',
      wantHead:
        /^n2: the CNI plugin cannot set up the pod's network \(add cmd: failed to assign an IP address to container\) → aws-node runs there and is Ready → the cause is in the plugin's state on the host/,
      fixHasCniDir: false,
    },
    {
      name: 'the agent crashes and the plugin refuses: the agent is still the cause, the head quotes the plugin',
      agentReady: false,
      message: CALICO,
      reason: 'FailedCreatePodSandBox',
      wantCode: 'NetworkAgentNotRunning',
      wantHead:
        /^n2: the CNI plugin cannot set up the pod's network \(stat \/var\/lib\/calico\/nodename: .*\) → aws-node has a pod there that is not Ready/,
      fixHasCniDir: false,
    },
    {
      name: 'network not ready with the agent running: unchanged, the host’s CNI configuration',
      agentReady: true,
      message: NOT_READY,
      reason: 'NetworkNotReady',
      wantCode: 'NetworkNotReadyAgentRunning',
      wantHead:
        /^n2: network not ready → aws-node runs there and is Ready → the cause is on the host \(CNI configuration, the agent logs\)/,
      fixHasCniDir: true,
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const cni = agent('aws-node');
      const stuck = pod('xyz-agent-n2', 'infra')
        .ofDaemonSet(app, 'n2')
        .on('n2')
        .waiting('ContainerCreating')
        .created(3600)
        .build();
      const index = indexOf({
        nodes: [node('n1').build(), node('n2').build()],
        daemonSets: [cni, app],
        pods: [
          agentPod(cni, 'n1', true),
          agentPod(cni, 'n2', c.agentReady),
          pod('xyz-agent-n1', 'infra').ofDaemonSet(app, 'n1').on('n1').ready().build(),
          stuck,
        ],
        events: [event('Pod', stuck, c.reason, c.message)],
      });
      const causes = causesOnNode(index, [app], 'n2', { now: NOW });
      assert.equal(causes[0]?.code, c.wantCode, JSON.stringify(causes));
      assert.match(causes[0].summary, c.wantHead);
      assert.equal(/\/etc\/cni\/net\.d/.test(causes[0].fix), c.fixHasCniDir, causes[0].fix);
    });
  }
});
