import { pdbMissing } from '../../../../src/lint/rules/pdb-missing.js';
import type { DaemonSet, PodDisruptionBudget } from '../../../../src/model/k8s-types.js';
import { bare, cluster, goodDaemonSet, ruleTester } from '../rule-tester.js';

function pdb(namespace: string, matchLabels: Record<string, string>): PodDisruptionBudget {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'budget', namespace },
    spec: { maxUnavailable: 1, selector: { matchLabels } },
  };
}

const withPdbs =
  (...pdbs: PodDisruptionBudget[]) =>
  (ds: DaemonSet) =>
    cluster({ daemonSets: [ds], podDisruptionBudgets: pdbs });
const logAgent = () =>
  goodDaemonSet('fluent-bit', 'logging').with((d) => {
    d.spec!.template!.spec!.containers![0]!.image = 'fluent/fluent-bit:3.0';
  });

ruleTester(pdbMissing, {
  valid: [
    { name: 'a PDB selects the pods', ds: logAgent().build(), input: withPdbs(pdb('logging', { app: 'fluent-bit' })) },
    { name: 'an application DaemonSet is not critical', ds: goodDaemonSet('app', 'shop').build(), input: withPdbs() },
    {
      name: 'an empty policy/v1 selector selects every pod of the namespace',
      ds: logAgent().build(),
      input: withPdbs({ ...pdb('logging', {}), spec: { maxUnavailable: 1, selector: {} } }),
    },
    {
      name: 'a DaemonSet and a PDB written without a namespace are both in default',
      ds: logAgent()
        .with((d) => {
          delete d.metadata!.namespace;
        })
        .build(),
      input: withPdbs({ ...pdb('default', { app: 'fluent-bit' }), metadata: { name: 'budget' } }),
    },
  ],
  invalid: [
    {
      name: 'a log collector without a PDB',
      ds: logAgent().build(),
      input: withPdbs(),
      findings: [
        {
          severity: 'info',
          path: 'spec.template.metadata.labels',
          message:
            /no PodDisruptionBudget in namespace logging selects the pods of this log collector \(image fluent\/fluent-bit:3\.0\): /,
          fix: /kind: PodDisruptionBudget[\s\S]*namespace: logging[\s\S]*maxUnavailable: 10%[\s\S]*app: fluent-bit/,
        },
      ],
    },
    {
      name: 'a PDB in another namespace does not count',
      ds: logAgent().build(),
      input: withPdbs(pdb('default', { app: 'fluent-bit' })),
      findings: [{ severity: 'info', path: 'spec.template.metadata.labels' }],
    },
    {
      name: 'a PDB of the namespace selecting other pods does not count',
      ds: logAgent().build(),
      input: withPdbs(pdb('logging', { app: 'elasticsearch' })),
      findings: [{ severity: 'info', path: 'spec.template.metadata.labels' }],
    },
    {
      name: 'a PDB without a selector selects no pod',
      ds: logAgent().build(),
      input: withPdbs({ ...pdb('logging', {}), spec: { maxUnavailable: 1 } }),
      findings: [{ severity: 'info', path: 'spec.template.metadata.labels' }],
    },
    {
      name: 'an empty policy/v1beta1 selector selects no pod',
      ds: logAgent().build(),
      input: withPdbs({
        ...pdb('logging', {}),
        apiVersion: 'policy/v1beta1',
        spec: { maxUnavailable: 1, selector: {} },
      }),
      findings: [{ severity: 'info', path: 'spec.template.metadata.labels' }],
    },
    {
      name: 'system-node-critical makes an application critical',
      ds: goodDaemonSet('app', 'shop')
        .with((d) => {
          d.spec!.template!.spec!.priorityClassName = 'system-node-critical';
        })
        .build(),
      input: withPdbs(pdb('shop', { app: 'other' })),
      findings: [
        {
          severity: 'info',
          path: 'spec.template.metadata.labels',
          message: /this DaemonSet of priority class system-node-critical/,
        },
      ],
    },
  ],
  notChecked: [
    {
      name: 'a bare manifest has no PDBs',
      ds: logAgent().build(),
      input: (ds) => bare(ds),
      why: /no PodDisruptionBudget objects: add the PDB manifests/,
    },
    {
      name: 'PDBs forbidden by RBAC',
      ds: logAgent().build(),
      input: (ds) => ({
        ...cluster({ daemonSets: [ds] }),
        missing: [
          { kind: 'PodDisruptionBudget', reason: 'forbidden', detail: 'list poddisruptionbudgets.policy is forbidden' },
        ],
      }),
      why: /could not be read: list poddisruptionbudgets\.policy is forbidden/,
    },
  ],
});
