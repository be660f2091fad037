import { readinessProbeMissing } from '../../../../src/lint/rules/readiness-probe-missing.js';
import { goodDaemonSet, ruleTester } from '../rule-tester.js';

const noProbe = () => goodDaemonSet().with((d) => { delete d.spec!.template!.spec!.containers![0]!.readinessProbe; });
const PATH = 'spec.template.spec.containers[0].readinessProbe';

ruleTester(readinessProbeMissing, {
  valid: [
    { name: 'a probe', ds: goodDaemonSet().build() },
    { name: 'one probed container is enough (sidecars rarely have one)', ds: goodDaemonSet().container({ name: 'registrar', image: 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.10.1' }).build() },
  ],
  invalid: [
    {
      name: 'no probe with the default RollingUpdate',
      ds: noProbe().with((d) => { d.spec!.template!.spec!.containers![0]!.ports = [{ containerPort: 2020 }]; }).build(),
      findings: [{ severity: 'warning', path: PATH, message: /moves on from a broken version immediately/, fix: /port: 2020/ }],
    },
    {
      name: 'minReadySeconds softens it to info',
      ds: noProbe().with((d) => { d.spec!.minReadySeconds = 30; }).build(),
      findings: [{ severity: 'info', path: PATH, message: /after minReadySeconds \(30s\)/ }],
    },
    {
      name: 'OnDelete: info',
      ds: noProbe().with((d) => { d.spec!.updateStrategy = { type: 'OnDelete' }; }).build(),
      findings: [{ severity: 'info', path: PATH, message: /nothing tells a broken agent from a working one/ }],
    },
    {
      name: 'a liveness probe is not a readiness probe',
      ds: noProbe().with((d) => { d.spec!.template!.spec!.containers![0]!.livenessProbe = { httpGet: { path: '/' } }; }).build(),
      findings: [{ severity: 'warning', path: PATH }],
    },
  ],
});
