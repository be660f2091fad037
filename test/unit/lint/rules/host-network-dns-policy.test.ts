import { hostNetworkDnsPolicy } from '../../../../src/lint/rules/host-network-dns-policy.js';
import { goodDaemonSet, ruleTester } from '../rule-tester.js';

const PATH = 'spec.template.spec.dnsPolicy';
const hostNet = (dnsPolicy?: string) => goodDaemonSet().hostNetwork().with((d) => { if (dnsPolicy) d.spec!.template!.spec!.dnsPolicy = dnsPolicy; });
const image = (img: string) => (d: import('../../../../src/model/k8s-types.js').DaemonSet) => { d.spec!.template!.spec!.containers![0]!.image = img; };

ruleTester(hostNetworkDnsPolicy, {
  valid: [
    { name: 'pod network', ds: goodDaemonSet().build() },
    { name: 'ClusterFirstWithHostNet', ds: hostNet('ClusterFirstWithHostNet').build() },
    { name: 'Default states that no cluster DNS is needed', ds: hostNet('Default').build() },
    { name: 'None with a dnsConfig', ds: hostNet('None').build() },
    { name: 'a CNI agent must not depend on cluster DNS', ds: hostNet().with(image('docker.io/calico/node:v3.28.0')).build() },
    { name: 'kube-proxy must not depend on cluster DNS', ds: hostNet('ClusterFirst').with(image('registry.k8s.io/kube-proxy:v1.30.2')).build() },
    { name: 'node-local DNS is the DNS', ds: hostNet().with(image('registry.k8s.io/dns/k8s-dns-node-cache:1.23.1')).build() },
  ],
  invalid: [
    {
      name: 'unset',
      ds: hostNet().build(),
      findings: [{ severity: 'warning', path: PATH, message: /dnsPolicy unset \(ClusterFirst\): the pod gets the node's resolv\.conf/, fix: /dnsPolicy: ClusterFirstWithHostNet/ }],
    },
    {
      name: 'explicit ClusterFirst on a log collector',
      ds: hostNet('ClusterFirst').with(image('fluent/fluent-bit:3.0')).build(),
      findings: [{ severity: 'warning', path: PATH, message: /dnsPolicy ClusterFirst: .*log collector usually ships to an in-cluster backend/ }],
    },
  ],
});
