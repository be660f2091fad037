import { missingOsSelector } from '../../../../src/lint/rules/missing-os-selector.js';
import type { DaemonSet, Node } from '../../../../src/model/k8s-types.js';
import { node } from '../../../builders.js';
import { bare, cluster, goodDaemonSet, ruleTester } from '../rule-tester.js';

const PATH = 'spec.template.spec.nodeSelector';
const on =
  (...nodes: Node[]) =>
  (ds: DaemonSet) =>
    cluster({ daemonSets: [ds], nodes });
const linux = (name: string) => node(name).build();
const windows = (name: string) => node(name).label('kubernetes.io/os', 'windows').build();
const arm = (name: string) => node(name).label('kubernetes.io/arch', 'arm64').build();

ruleTester(missingOsSelector, {
  valid: [
    {
      name: 'an OS nodeSelector in a mixed cluster',
      ds: goodDaemonSet().nodeSelector({ 'kubernetes.io/os': 'linux' }).build(),
      input: on(linux('l1'), windows('w1')),
    },
    {
      name: 'a required affinity on the OS',
      ds: goodDaemonSet()
        .affinity({
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['windows'] }] }],
        })
        .build(),
      input: on(linux('l1'), windows('w1')),
    },
    {
      name: 'a pool selector that covers only Linux nodes',
      ds: goodDaemonSet().nodeSelector({ pool: 'logging' }).build(),
      input: on(node('l1').label('pool', 'logging').build(), windows('w1')),
    },
    {
      name: 'Windows nodes kept off by a taint',
      ds: goodDaemonSet().build(),
      input: on(
        linux('l1'),
        node('w1').label('kubernetes.io/os', 'windows').taint('os', 'windows', 'NoSchedule').build(),
      ),
    },
  ],
  invalid: [
    {
      name: 'no selector in a Linux + Windows cluster',
      ds: goodDaemonSet().build(),
      input: on(linux('l1'), linux('l2'), windows('w1')),
      findings: [
        {
          severity: 'warning',
          path: PATH,
          message: /nodes of 2 operating systems \(2 linux, 1 windows\)/,
          fix: /kubernetes\.io\/os: linux/,
        },
      ],
    },
    {
      name: 'mixed architectures: info',
      ds: goodDaemonSet().nodeSelector({ 'kubernetes.io/os': 'linux' }).build(),
      input: on(linux('l1'), arm('a1'), arm('a2')),
      findings: [
        {
          severity: 'info',
          path: PATH,
          message: /2 architectures \(2 arm64, 1 amd64\): every image must be multi-arch/,
          fix: /kubernetes\.io\/arch: arm64/,
        },
      ],
    },
    {
      name: 'both',
      ds: goodDaemonSet().build(),
      input: on(linux('l1'), windows('w1'), arm('a1')),
      findings: [
        { severity: 'warning', path: PATH, message: /operating systems/ },
        { severity: 'info', path: PATH, message: /architectures/ },
      ],
    },
  ],
  notChecked: [
    { name: 'a bare manifest', ds: goodDaemonSet().build(), input: (ds) => bare(ds), why: /no Node objects/ },
    {
      name: 'a homogeneous cluster',
      ds: goodDaemonSet().build(),
      input: on(linux('l1'), linux('l2')),
      why: /all 2 node\(s\) of the input are linux\/amd64/,
    },
  ],
});
