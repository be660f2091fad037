import { maxUnavailableTooLow } from '../../../../src/lint/rules/max-unavailable-too-low.js';
import type { DaemonSet, Node, Pod } from '../../../../src/model/k8s-types.js';
import { ago, node, pod } from '../../../builders.js';
import { bare, cluster, goodDaemonSet, ruleTester } from '../rule-tester.js';

function nodes(n: number, prefix = 'worker'): Node[] {
  return Array.from({ length: n }, (_, i) => node(`${prefix}-${String(i).padStart(3, '0')}`).build());
}

function onNodes(n: number, extra: Node[] = []) {
  return (ds: DaemonSet) => cluster({ daemonSets: [ds], nodes: [...nodes(n), ...extra] });
}

/** Ready pods of `ds` that took `seconds` from creation to Ready. */
function history(ds: DaemonSet, count: number, seconds: number): Pod[] {
  return Array.from({ length: count }, (_, i) =>
    pod(`agent-${i}`)
      .ofDaemonSet(ds, `worker-${i}`)
      .on(`worker-${i}`)
      .with((p) => {
        p.metadata!.creationTimestamp = ago(3600);
        p.status = {
          phase: 'Running',
          conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: ago(3600 - seconds) }],
        };
      })
      .build(),
  );
}

const strategy = (rollingUpdate: { maxUnavailable?: number | string; maxSurge?: number | string } | undefined) =>
  goodDaemonSet().with((d) => {
    d.spec!.updateStrategy = rollingUpdate ? { type: 'RollingUpdate', rollingUpdate } : { type: 'RollingUpdate' };
  });
const UNAVAILABLE = 'spec.updateStrategy.rollingUpdate.maxUnavailable';

ruleTester(maxUnavailableTooLow, {
  valid: [
    { name: '30 nodes at 1: 30 minutes is the limit', ds: strategy({ maxUnavailable: 1 }).build(), input: onNodes(30) },
    { name: '200 nodes at 10%: 20 rounds', ds: strategy({ maxUnavailable: '10%' }).build(), input: onNodes(200) },
    {
      name: "OnDelete is update-strategy-on-delete's business",
      ds: strategy(undefined)
        .with((d) => {
          d.spec!.updateStrategy = { type: 'OnDelete' };
        })
        .build(),
      input: onNodes(500),
    },
    {
      name: 'only the nodes it runs on count: 100 nodes, 10 selected',
      ds: strategy({ maxUnavailable: 1 }).nodeSelector({ pool: 'edge' }).build(),
      input: (ds) =>
        cluster({
          daemonSets: [ds],
          nodes: [
            ...nodes(90),
            ...Array.from({ length: 10 }, (_, i) => node(`edge-${i}`).label('pool', 'edge').build()),
          ],
        }),
    },
    {
      name: 'fast pods (15s to Ready) make 100 nodes at 1 take 25 minutes',
      ds: strategy({ maxUnavailable: 1 }).build(),
      input: (ds) => cluster({ daemonSets: [ds], nodes: nodes(100), pods: history(ds, 5, 15) }),
    },
  ],
  invalid: [
    {
      name: '120 nodes at the default 1: suggest 10% (12 at a time, ~10 minutes)',
      ds: strategy(undefined).build(),
      input: onNodes(120),
      findings: [
        {
          severity: 'warning',
          path: UNAVAILABLE,
          message:
            /replaces 1 of 120 node\(s\) at a time \(maxUnavailable 1\): 120 rounds, about 120m at 60s a node \(assumed a minute a node/,
          fix: /roll 12 node\(s\) at a time, about 10m:[\s\S]*maxUnavailable: 10%/,
        },
      ],
    },
    {
      name: 'a percentage that rounds up to 1 (1% of 40)',
      ds: strategy({ maxUnavailable: '1%' }).build(),
      input: onNodes(40),
      findings: [
        {
          severity: 'warning',
          path: UNAVAILABLE,
          message: /1 of 40 node\(s\) at a time \(maxUnavailable 1%\)/,
          fix: /roll 4 node\(s\)[\s\S]*maxUnavailable: 10%/,
        },
      ],
    },
    {
      name: 'both zero is forced to 1 by the controller',
      ds: strategy({ maxUnavailable: 0, maxSurge: 0 }).build(),
      input: onNodes(60),
      findings: [{ severity: 'warning', path: UNAVAILABLE, message: /1 of 60/ }],
    },
    {
      name: 'surge rolls maxSurge nodes at a time, and the fix keeps surging',
      ds: strategy({ maxUnavailable: 0, maxSurge: 1 }).build(),
      input: onNodes(45),
      findings: [
        {
          severity: 'warning',
          path: 'spec.updateStrategy.rollingUpdate.maxSurge',
          message: /\(maxSurge 1\)/,
          fix: /maxSurge: \d+%\n\s+maxUnavailable: 0/,
        },
      ],
    },
    {
      name: 'pod history (3 minutes to Ready) and minReadySeconds make 20 nodes too slow',
      ds: strategy({ maxUnavailable: 1 })
        .with((d) => {
          d.spec!.minReadySeconds = 30;
        })
        .build(),
      input: (ds) => cluster({ daemonSets: [ds], nodes: nodes(20), pods: history(ds, 3, 180) }),
      findings: [
        {
          severity: 'warning',
          path: UNAVAILABLE,
          message:
            /at 210s a node \(the median creation-to-Ready time of 3 pod\(s\) in the input, 180s \+ minReadySeconds 30s\)/,
          fix: /maxUnavailable: 50%/,
        },
      ],
    },
    {
      name: 'a CNI agent is reminded of the blast radius',
      ds: strategy({ maxUnavailable: 1 })
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.image = 'docker.io/calico/node:v3.28.0';
        })
        .build(),
      input: onNodes(50),
      findings: [
        {
          severity: 'warning',
          path: UNAVAILABLE,
          message: /CNI agent, weigh speed against how many nodes may lose pod networking/,
        },
      ],
    },
  ],
  notChecked: [
    {
      name: 'a bare manifest has no nodes',
      ds: strategy(undefined).build(),
      input: (ds) => bare(ds),
      why: /no Node objects/,
    },
    { name: 'an empty node list', ds: strategy(undefined).build(), input: onNodes(0), why: /empty node list/ },
  ],
});
