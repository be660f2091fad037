import { livenessProbeMissing } from '../../../../src/lint/rules/liveness-probe-missing.js';
import { goodDaemonSet, ruleTester } from '../rule-tester.js';

const live = { httpGet: { path: '/healthz', port: 8080 } };
const probed = () =>
  goodDaemonSet().with((d) => {
    d.spec!.template!.spec!.containers![0]!.livenessProbe = live;
  });
const PATH = 'spec.template.spec.containers[0].livenessProbe';

ruleTester(livenessProbeMissing, {
  valid: [
    { name: 'a liveness probe', ds: probed().build() },
    {
      name: 'a helper sidecar (kube-rbac-proxy) needs none of its own',
      ds: probed().container({ name: 'proxy', image: 'quay.io/brancz/kube-rbac-proxy:v0.18.1' }).build(),
    },
    {
      name: 'init containers take no probe',
      ds: probed()
        .with((d) => {
          d.spec!.template!.spec!.initContainers = [{ name: 'install-cni', image: 'example/cni:1.0' }];
        })
        .build(),
    },
  ],
  invalid: [
    {
      name: "no liveness probe: the readiness probe's endpoint is suggested, as one the container serves",
      ds: goodDaemonSet()
        .with((d) => {
          delete d.spec!.template!.spec!.containers![0]!.livenessProbe;
        })
        .build(),
      findings: [
        {
          severity: 'warning',
          path: PATH,
          message: /^container agent has no liveness probe: if it hangs/,
          fix: /readiness probe already uses[\s\S]*httpGet:\n\s+path: \/healthz\n\s+port: 8080/,
        },
      ],
    },
    {
      name: "a second agent container is judged on its own (datadog's trace-agent)",
      ds: probed()
        .container({
          name: 'trace-agent',
          image: 'example/trace-agent:7.0',
          ports: [{ name: 'traceport', containerPort: 8126 }],
        })
        .build(),
      findings: [
        {
          severity: 'warning',
          path: 'spec.template.spec.containers[1].livenessProbe',
          fix: /tcpSocket:\n\s+port: traceport/,
        },
      ],
    },
    {
      name: 'a native sidecar is long-running',
      ds: probed()
        .with((d) => {
          d.spec!.template!.spec!.initContainers = [
            { name: 'shipper', image: 'example/shipper:1.0', restartPolicy: 'Always' },
          ];
        })
        .build(),
      findings: [{ severity: 'warning', path: 'spec.template.spec.initContainers[0].livenessProbe', fix: /exec:/ }],
    },
  ],
});
