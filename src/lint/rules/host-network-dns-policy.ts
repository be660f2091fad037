/**
 * `host-network-dns-policy`: a hostNetwork pod that uses cluster DNS says so with
 * `ClusterFirstWithHostNet`.
 * Motivation: the kubelet's DNS configurer (pkg/kubelet/network/dns): with hostNetwork,
 * `ClusterFirst` falls back to the node's resolv.conf, so Service names do not resolve —
 * peer-tools §14 item 10.
 */
import type { LintRule } from '../types.js';
import { findRole, POD_SPEC, podSpec } from '../template.js';

/** Policies that state the pod's DNS intent under hostNetwork. */
const EXPLICIT = new Set(['ClusterFirstWithHostNet', 'Default', 'None']);

/** The `host-network-dns-policy` rule, as the registry lists it. */
export const hostNetworkDnsPolicy: LintRule = {
  meta: {
    id: 'host-network-dns-policy',
    severity: 'warning',
    description: 'A hostNetwork pod sets `dnsPolicy` to `ClusterFirstWithHostNet` (or, when it needs no cluster DNS, `Default`) instead of leaving `ClusterFirst`.',
    rationale: 'With hostNetwork, the default dnsPolicy ClusterFirst silently behaves like Default: the pod gets the node\'s resolv.conf and cluster Service names (backend.logging.svc) do not resolve. Agents that ship to in-cluster backends fail in ways that look like network problems. Network agents, kube-proxy and node-local DNS are exempt: they must not depend on cluster DNS, which depends on them.',
    howToFix: 'Set `dnsPolicy: ClusterFirstWithHostNet` when the agent talks to Services by name; set `dnsPolicy: Default` to state that it does not.',
    example: 'spec:\n  template:\n    spec:\n      hostNetwork: true\n      # dnsPolicy unset: ClusterFirst, which acts as Default here',
  },
  check(ds, ctx) {
    const spec = podSpec(ds);
    if (spec.hostNetwork !== true || EXPLICIT.has(spec.dnsPolicy ?? '')) return [];
    // Cluster DNS runs on the pod network these agents provide: they must not depend on it.
    if (findRole(ctx.roles(ds), 'network', 'service-proxy', 'dns')) return [];
    const logging = findRole(ctx.roles(ds), 'logging');
    return [{
      message: `hostNetwork with dnsPolicy ${spec.dnsPolicy ?? 'unset (ClusterFirst)'}: the pod gets the node's resolv.conf, so cluster Service names do not resolve${logging ? '; a log collector usually ships to an in-cluster backend by Service name' : ''}`,
      path: `${POD_SPEC}.dnsPolicy`,
      fix: 'state the intent: ClusterFirstWithHostNet when the agent resolves Services, Default when it does not:\ndnsPolicy: ClusterFirstWithHostNet',
    }];
  },
};
