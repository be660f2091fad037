import { maxUnavailableAllUnprobed } from '../../../../src/lint/rules/max-unavailable-all-unprobed.js';
import type { DaemonSet } from '../../../../src/model/k8s-types.js';
import { node } from '../../../builders.js';
import { goodDaemonSet, cluster, ruleTester } from '../rule-tester.js';

const PATH = 'spec.updateStrategy.rollingUpdate.maxUnavailable';

function agent(maxUnavailable: number | string, probe = false) {
  return goodDaemonSet('log-agent', 'logging')
    .with((d) => {
      d.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable } };
      if (!probe) delete d.spec!.template!.spec!.containers![0]!.readinessProbe;
    })
    .build();
}

const threeNodes = (ds: DaemonSet) =>
  cluster({ daemonSets: [ds], nodes: [node('n1').build(), node('n2').build(), node('n3').build()] });

ruleTester(maxUnavailableAllUnprobed, {
  valid: [
    { name: '100% with a readiness probe (Longhorn manager)', ds: agent('100%', true) },
    { name: '25% without a probe: readiness-probe-missing says that much', ds: agent('25%') },
    { name: 'a number on a bare manifest: the node count is unknown', ds: agent(5) },
    { name: 'a number below the node count', ds: agent(2), input: threeNodes },
    {
      name: 'OnDelete',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.updateStrategy = { type: 'OnDelete' };
          delete d.spec!.template!.spec!.containers![0]!.readinessProbe;
        })
        .build(),
    },
  ],
  invalid: [
    {
      name: '100% without a readiness probe (logdna-agent)',
      ds: agent('100%'),
      findings: [
        {
          severity: 'warning',
          path: PATH,
          message:
            /^maxUnavailable 100%: a rollout takes the agent off every node at once, and no container \(container log-agent\) has a readiness probe/,
          fix: /maxUnavailable: 25%/,
        },
      ],
    },
    {
      name: 'a number at least the input node count',
      ds: agent(3),
      input: threeNodes,
      findings: [{ severity: 'warning', path: PATH, message: /^maxUnavailable 3 with 3 node\(s\) in the input/ }],
    },
  ],
});
