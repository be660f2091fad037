// The kubelet's named-port lookup (pkg/probe/util.go ResolveContainerPort, findPortByName), with
// the cases of pkg/kubelet/prober/prober_test.go TestGetURLParts and TestGetTCPAddrParts: a
// declared name ("found") resolves, a numeric string resolves, an undeclared name ("not-found")
// is an error; and only the probed container's own ports count.
import { probePortNotDeclared } from '../../../../src/lint/rules/probe-port-not-declared.js';
import type { Container } from '../../../../src/model/k8s-types.js';
import { goodDaemonSet, ruleTester } from '../rule-tester.js';

const C0 = 'spec.template.spec.containers[0]';

function withContainer(patch: Partial<Container>, extra: Container[] = []) {
  return goodDaemonSet('plugin')
    .with((d) => {
      const c = d.spec!.template!.spec!.containers![0]!;
      Object.assign(c, patch);
      d.spec!.template!.spec!.containers!.push(...extra);
    })
    .build();
}

ruleTester(probePortNotDeclared, {
  valid: [
    { name: 'numeric ports (the good DaemonSet)', ds: goodDaemonSet().build() },
    {
      name: 'a named port the container declares (TestGetURLParts "found")',
      ds: withContainer({
        ports: [{ name: 'healthz', containerPort: 9808 }],
        livenessProbe: { httpGet: { path: '/healthz', port: 'healthz' } },
        readinessProbe: { tcpSocket: { port: 'healthz' } },
      }),
    },
    {
      name: 'a numeric string resolves as a number (the "last ditch effort")',
      ds: withContainer({
        readinessProbe: { httpGet: { path: '/ready', port: '8080' } },
        livenessProbe: { tcpSocket: { port: '8080' } },
      }),
    },
    {
      name: 'exec and grpc probes name no port',
      ds: withContainer({ readinessProbe: { exec: { command: ['true'] } }, livenessProbe: { grpc: { port: 9000 } } }),
    },
  ],
  invalid: [
    {
      name: "a liveness probe on a port the container does not declare, declared by the registrar (seaweedfs-csi's shape): warning",
      ds: withContainer({ ports: [], livenessProbe: { httpGet: { path: '/healthz', port: 'healthz' } } }, [
        {
          name: 'driver-registrar',
          image: 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.8.0',
          ports: [{ name: 'healthz', containerPort: 9809 }],
        },
      ]),
      findings: [
        {
          severity: 'warning',
          path: `${C0}.livenessProbe.httpGet.port`,
          message:
            /container plugin's liveness probe uses port "healthz", which it does not declare \(it declares no ports; container driver-registrar declares it, which does not count\): .*never restarts it/,
          fix: /name: healthz\n\s+containerPort: 9809/,
        },
      ],
    },
    {
      name: 'a readiness probe on an undeclared tcpSocket name: error, the pod is never Ready (TestGetTCPAddrParts "not found")',
      ds: withContainer({
        ports: [{ name: 'metrics', containerPort: 9100 }],
        readinessProbe: { tcpSocket: { port: 'health' } },
      }),
      findings: [
        {
          severity: 'error',
          path: `${C0}.readinessProbe.tcpSocket.port`,
          message: /it declares metrics \(9100\)\): .*never becomes Ready/,
          fix: /containerPort: <the port it serves>/,
        },
      ],
    },
    {
      name: 'a startup probe on an undeclared name: error, never started',
      ds: withContainer({ startupProbe: { httpGet: { path: '/started', port: 'http' } } }),
      findings: [
        {
          severity: 'error',
          path: `${C0}.startupProbe.httpGet.port`,
          message: /startup probe .*never counts as started/,
        },
      ],
    },
  ],
});
