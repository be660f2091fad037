import { hostNetworkDnsPolicy } from '../../../../src/lint/rules/host-network-dns-policy.js';
import type { DaemonSet } from '../../../../src/model/k8s-types.js';
import { goodDaemonSet, ruleTester } from '../rule-tester.js';

const PATH = 'spec.template.spec.dnsPolicy';
const hostNet = (dnsPolicy?: string) =>
  goodDaemonSet()
    .hostNetwork()
    .with((d) => {
      if (dnsPolicy) d.spec!.template!.spec!.dnsPolicy = dnsPolicy;
    });
const env = (name: string, value: string) => (d: DaemonSet) => {
  d.spec!.template!.spec!.containers![0]!.env = [{ name, value }];
};
const image = (img: string) => (d: DaemonSet) => {
  d.spec!.template!.spec!.containers![0]!.image = img;
};

ruleTester(hostNetworkDnsPolicy, {
  valid: [
    { name: 'pod network', ds: goodDaemonSet().build() },
    { name: 'ClusterFirstWithHostNet', ds: hostNet('ClusterFirstWithHostNet').build() },
    { name: 'Default states that no cluster DNS is needed', ds: hostNet('Default').build() },
    { name: 'None with a dnsConfig', ds: hostNet('None').build() },
    {
      name: 'a CNI agent must not depend on cluster DNS',
      ds: hostNet().with(image('docker.io/calico/node:v3.28.0')).build(),
    },
    {
      name: 'kube-proxy must not depend on cluster DNS',
      ds: hostNet('ClusterFirst').with(image('registry.k8s.io/kube-proxy:v1.30.2')).build(),
    },
    {
      name: 'node-local DNS is the DNS',
      ds: hostNet().with(image('registry.k8s.io/dns/k8s-dns-node-cache:1.23.1')).build(),
    },
    // Issue 14 §3: node-exporter, MetalLB's speaker, ip-masq-agent reach the API server by IP and resolve nothing.
    {
      name: 'an agent that names no Service (node-exporter) resolves nothing',
      ds: hostNet().with(image('quay.io/prometheus/node-exporter:v1.8.2')).build(),
    },
    {
      name: 'an agent that talks to the API server by IP only',
      ds: hostNet().with(env('KUBERNETES_SERVICE_HOST', '10.96.0.1')).build(),
    },
    {
      name: 'a field reference or a path is no Service name',
      ds: hostNet().with(env('METALLB_ML_SECRET_KEY_PATH', '/etc/ml_secret_key')).build(),
    },
    {
      name: 'an address env var pointing at localhost',
      ds: hostNet().with(env('OTLP_ENDPOINT', 'http://localhost:4317')).build(),
    },
  ],
  invalid: [
    {
      name: 'unset, with a <service>.<namespace>.svc address in an env value',
      ds: hostNet().with(env('BACKEND_URL', 'http://loki.logging.svc:3100')).build(),
      findings: [
        {
          severity: 'warning',
          path: PATH,
          message:
            /dnsPolicy unset \(ClusterFirst\): the pod gets the node's resolv\.conf.*env BACKEND_URL=http:\/\/loki\.logging\.svc:3100/,
          fix: /dnsPolicy: ClusterFirstWithHostNet/,
        },
      ],
    },
    {
      name: "a bare Service name in an address env var (fluentd's FLUENT_ELASTICSEARCH_HOST)",
      ds: hostNet().with(env('FLUENT_ELASTICSEARCH_HOST', 'elasticsearch-logging')).build(),
      findings: [{ severity: 'warning', path: PATH, message: /env FLUENT_ELASTICSEARCH_HOST=elasticsearch-logging/ }],
    },
    {
      name: 'a svc.cluster.local address in an argument',
      ds: hostNet()
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.args = ['--server=collector.monitoring.svc.cluster.local:4317'];
        })
        .build(),
      findings: [
        {
          severity: 'warning',
          path: PATH,
          message: /argument --server=collector\.monitoring\.svc\.cluster\.local:4317/,
        },
      ],
    },
    {
      name: 'explicit ClusterFirst on a log collector',
      ds: hostNet('ClusterFirst').with(image('fluent/fluent-bit:3.0')).build(),
      findings: [
        {
          severity: 'warning',
          path: PATH,
          message: /dnsPolicy ClusterFirst: .*log collector usually ships to an in-cluster backend/,
        },
      ],
    },
  ],
});
