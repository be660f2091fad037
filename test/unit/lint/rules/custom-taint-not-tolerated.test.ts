import { customTaintNotTolerated } from '../../../../src/lint/rules/custom-taint-not-tolerated.js';
import type { DaemonSet, Node } from '../../../../src/model/k8s-types.js';
import { node } from '../../../builders.js';
import { bare, cluster, goodDaemonSet, ruleTester } from '../rule-tester.js';

const PATH = 'spec.template.spec.tolerations';
const on =
  (...nodes: Node[]) =>
  (ds: DaemonSet) =>
    cluster({ daemonSets: [ds], nodes });
const gpu = (name: string) => node(name).label('pool', 'gpu').taint('dedicated', 'gpu', 'NoSchedule').build();
const controlPlane = () =>
  node('cp-1')
    .label('node-role.kubernetes.io/control-plane', '')
    .taint('node-role.kubernetes.io/control-plane', undefined, 'NoSchedule')
    .build();
const logAgent = () =>
  goodDaemonSet('fluent-bit', 'logging').with((d) => {
    d.spec!.template!.spec!.containers![0]!.image = 'fluent/fluent-bit:3.0';
  });

ruleTester(customTaintNotTolerated, {
  valid: [
    { name: 'no tainted nodes', ds: logAgent().build(), input: on(node('w1').build(), node('w2').build()) },
    {
      name: 'the taint is tolerated',
      ds: logAgent().tolerate({ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }).build(),
      input: on(node('w1').build(), gpu('g1')),
    },
    {
      name: 'system taints are tolerated by the controller or transient (cordoned, not-ready)',
      ds: logAgent().build(),
      input: on(
        node('w1').cordon().build(),
        node('w2').taint('node.kubernetes.io/not-ready', undefined, 'NoExecute').build(),
      ),
    },
    {
      name: 'the nodeSelector excludes the tainted nodes: not meant for them',
      ds: logAgent().nodeSelector({ pool: 'general' }).build(),
      input: on(node('w1').label('pool', 'general').build(), gpu('g1')),
    },
    {
      name: 'PreferNoSchedule taints do not keep the pod off',
      ds: logAgent().build(),
      input: on(node('w1').taint('spot', 'true', 'PreferNoSchedule').build()),
    },
    {
      name: 'an ordinary DaemonSet is meant to stay off control-plane nodes',
      ds: logAgent().build(),
      input: on(node('w1').build(), controlPlane()),
    },
  ],
  invalid: [
    {
      name: "the guide's pitfall: dedicated GPU nodes without the log agent, grouped by taint",
      ds: logAgent().build(),
      input: on(
        node('w1').build(),
        gpu('gpu-b'),
        gpu('gpu-a'),
        node('ingress-1').taint('dedicated', 'ingress', 'NoExecute').build(),
      ),
      findings: [
        {
          severity: 'warning',
          path: PATH,
          message:
            /1 node\(s\) carry taint dedicated=ingress:NoExecute.*ingress-1.*NoExecute: running pods are evicted too.*log collector/,
          fix: /key: dedicated\n\s+operator: Equal\n\s+value: ingress\n\s+effect: NoExecute/,
        },
        {
          severity: 'warning',
          path: PATH,
          message:
            /2 node\(s\) carry taint dedicated=gpu:NoSchedule, which the DaemonSet does not tolerate: gpu-a, gpu-b\./,
        },
      ],
    },
    {
      name: 'many nodes are abbreviated',
      ds: logAgent().build(),
      input: on(...['g1', 'g2', 'g3', 'g4', 'g5', 'g6', 'g7'].map(gpu)),
      findings: [{ severity: 'warning', path: PATH, message: /7 node\(s\).*g1, g2, g3, g4, g5 and 2 more/ }],
    },
    {
      name: 'a CNI agent must run on control-plane nodes too',
      ds: goodDaemonSet('calico-node', 'kube-system')
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.image = 'docker.io/calico/node:v3.28.0';
        })
        .build(),
      input: on(node('w1').build(), controlPlane()),
      findings: [
        {
          severity: 'warning',
          path: PATH,
          message: /taint node-role\.kubernetes\.io\/control-plane:NoSchedule.*cp-1/,
          fix: /key: node-role\.kubernetes\.io\/control-plane\n\s+operator: Exists/,
        },
      ],
    },
    {
      name: 'an application DaemonSet: info (it may be meant to stay off)',
      ds: goodDaemonSet('app', 'shop').build(),
      input: on(node('w1').build(), gpu('g1')),
      findings: [{ severity: 'info', path: PATH, message: /dedicated=gpu:NoSchedule/ }],
    },
  ],
  notChecked: [{ name: 'a bare manifest', ds: logAgent().build(), input: (ds) => bare(ds), why: /no Node objects/ }],
});
