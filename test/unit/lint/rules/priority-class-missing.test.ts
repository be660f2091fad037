import type { PriorityClass } from '../../../../src/model/k8s-types.js';
import { priorityClassMissing } from '../../../../src/lint/rules/priority-class-missing.js';
import { bare, cluster, goodDaemonSet, ruleTester } from '../rule-tester.js';

const PATH = 'spec.template.spec.priorityClassName';

function pc(name: string, value: number): PriorityClass {
  return { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value };
}

const agent = () => goodDaemonSet('node-agent', 'monitoring').hostNetwork();

ruleTester(priorityClassMissing, {
  valid: [
    { name: 'an application DaemonSet needs no priority class', ds: goodDaemonSet('app', 'shop').build() },
    {
      name: 'a node agent with system-node-critical',
      ds: agent()
        .with((d) => {
          d.spec!.template!.spec!.priorityClassName = 'system-node-critical';
        })
        .build(),
    },
    {
      name: 'a custom class that no user class outranks',
      ds: agent()
        .with((d) => {
          d.spec!.template!.spec!.priorityClassName = 'agents';
        })
        .build(),
      input: (ds) => cluster({ daemonSets: [ds], priorityClasses: [pc('agents', 1000000), pc('batch', 100)] }),
    },
    {
      name: 'a custom class on a bare manifest: its value cannot be known',
      ds: agent()
        .with((d) => {
          d.spec!.template!.spec!.priorityClassName = 'agents';
        })
        .build(),
      input: (ds) => bare(ds),
    },
  ],
  invalid: [
    {
      name: 'hostNetwork agent without a class',
      ds: agent().build(),
      findings: [
        {
          severity: 'warning',
          path: PATH,
          message: /node-level agent \(hostNetwork\) runs without a priority class/,
          fix: /priorityClassName: system-node-critical/,
        },
      ],
    },
    {
      name: 'a log collector by role (hostPath /var/log/pods)',
      ds: goodDaemonSet('shipper', 'logging')
        .with((d) => {
          d.spec!.template!.spec!.volumes = [{ name: 'pods', hostPath: { path: '/var/log/pods' } }];
        })
        .build(),
      findings: [{ severity: 'warning', path: PATH, message: /log collector/ }],
    },
    {
      name: 'any kube-system DaemonSet',
      ds: goodDaemonSet('helper', 'kube-system').build(),
      findings: [{ severity: 'warning', path: PATH, message: /kube-system DaemonSet/ }],
    },
    {
      name: 'a class that does not exist: every pod is rejected',
      ds: goodDaemonSet('app', 'shop')
        .with((d) => {
          d.spec!.template!.spec!.priorityClassName = 'hgih';
        })
        .build(),
      input: (ds) => cluster({ daemonSets: [ds], priorityClasses: [pc('high', 1000)] }),
      findings: [{ severity: 'error', path: PATH, message: /"hgih" does not exist.*FailedCreate/ }],
    },
    {
      name: 'an agent outranked by workload classes',
      ds: agent()
        .with((d) => {
          d.spec!.template!.spec!.priorityClassName = 'low';
        })
        .build(),
      input: (ds) =>
        cluster({ daemonSets: [ds], priorityClasses: [pc('low', 10), pc('web', 1000), pc('system-custom', 5000)] }),
      findings: [
        { severity: 'warning', path: PATH, message: /"low" \(10\), below 1 class\(es\) of the cluster: web \(1000\)/ },
      ],
    },
  ],
});
