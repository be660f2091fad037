import { memoryLimitMissing } from '../../../../src/lint/rules/memory-limit-missing.js';
import { goodDaemonSet, ruleTester } from '../rule-tester.js';

const C0 = 'spec.template.spec.containers[0]';

ruleTester(memoryLimitMissing, {
  valid: [
    { name: 'memory limit set', ds: goodDaemonSet().build() },
    { name: 'no cpu limit is fine: it only throttles', ds: goodDaemonSet().with((d) => { d.spec!.template!.spec!.containers![0]!.resources = { requests: { cpu: '1' }, limits: { memory: '1Gi' } }; }).build() },
  ],
  invalid: [
    {
      name: 'requests without limits: the suggested limit is twice the request',
      ds: goodDaemonSet().with((d) => { d.spec!.template!.spec!.containers![0]!.resources = { requests: { cpu: '100m', memory: '100Mi' } }; }).build(),
      findings: [{ severity: 'warning', path: `${C0}.resources.limits.memory`, message: /no memory limit/, fix: /memory: 200Mi/ }],
    },
    {
      name: 'no resources: a placeholder limit',
      ds: goodDaemonSet().with((d) => { delete d.spec!.template!.spec!.containers![0]!.resources; }).build(),
      findings: [{ severity: 'warning', path: `${C0}.resources.limits.memory`, fix: /memory: 256Mi/ }],
    },
    {
      name: 'only a cpu limit',
      ds: goodDaemonSet().with((d) => { d.spec!.template!.spec!.containers![0]!.resources = { requests: { memory: '1Gi' }, limits: { cpu: '1' } }; }).build(),
      findings: [{ severity: 'warning', path: `${C0}.resources.limits.memory`, fix: /memory: 2048Mi/ }],
    },
  ],
});
