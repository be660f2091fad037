/**
 * `host-network-dns-policy`: a hostNetwork pod that resolves Service names says so with
 * `ClusterFirstWithHostNet`.
 * Motivation: the kubelet's DNS configurer (pkg/kubelet/network/dns): with hostNetwork,
 * `ClusterFirst` falls back to the node's resolv.conf, so Service names do not resolve —
 * peer-tools §14 item 10. Issue 14 §3: only for pods that resolve Service names; agents that
 * reach the API server by IP (KUBERNETES_SERVICE_HOST) and resolve nothing are not affected.
 */
import type { Container } from '../../model/k8s-types.js';
import type { LintRule } from '../types.js';
import { findRole, POD_SPEC, podSpec, templateContainers } from '../template.js';

/** Policies that state the pod's DNS intent under hostNetwork. */
const EXPLICIT = new Set(['ClusterFirstWithHostNet', 'Default', 'None']);

/** A cluster DNS name in a value: `backend.logging.svc`, `…svc.cluster.local`, with or without a scheme or port. */
const SERVICE_DNS =
  /(^|[/@.\s=,])[a-z0-9]([-a-z0-9]*[a-z0-9])?\.[a-z0-9]([-a-z0-9]*[a-z0-9])?\.svc(\.cluster\.local)?(\.?$|[:/\s,])/i;

/** Env names that hold the address of something the agent connects to. */
const ADDRESS_NAME = /(HOST|HOSTNAME|ADDR|ADDRESS|ENDPOINT|URL|URI|SERVER|SERVICE)S?$/i;

/** A bare single-label host name (`elasticsearch-logging`, `http://loki:3100`): resolved through the search domains. */
const SHORT_HOST = /^([a-z][a-z0-9+.-]*:\/\/)?([a-z]([-a-z0-9]*[a-z0-9])?)(:\d+)?(\/.*)?$/i;

/**
 * Why a container resolves Service names, or undefined: an arg or env value naming a
 * `<svc>.<ns>.svc` address, or an address-like env var (`*_HOST`, `*_URL`, …) whose value is a
 * bare Service name (resolved through the cluster search domains). Values from `valueFrom`
 * (field or secret references) and `localhost` do not count.
 */
export function serviceNameEvidence(c: Container): string | undefined {
  for (const w of [...(c.command ?? []), ...(c.args ?? [])]) {
    if (SERVICE_DNS.test(w)) return `container ${c.name} argument ${w}`;
  }
  for (const e of c.env ?? []) {
    const v = e.value;
    if (!v) continue;
    if (SERVICE_DNS.test(v)) return `container ${c.name} env ${e.name}=${v}`;
    const short = SHORT_HOST.exec(v.trim());
    if (ADDRESS_NAME.test(e.name) && short && !/^(localhost|true|false|none|null)$/i.test(short[2]!))
      return `container ${c.name} env ${e.name}=${v}`;
  }
  return undefined;
}

/** The `host-network-dns-policy` rule, as the registry lists it. */
export const hostNetworkDnsPolicy: LintRule = {
  meta: {
    id: 'host-network-dns-policy',
    severity: 'warning',
    description:
      'A hostNetwork pod that resolves Service names (a Service address in its args or env, or a log collector) sets `dnsPolicy: ClusterFirstWithHostNet` instead of leaving `ClusterFirst`.',
    rationale:
      "With hostNetwork, the default dnsPolicy ClusterFirst silently behaves like Default: the pod gets the node's resolv.conf and cluster Service names (backend.logging.svc) do not resolve. Agents that ship to in-cluster backends fail in ways that look like network problems. The rule fires only on evidence that the pod resolves Service names: an argument or env value naming `<service>.<namespace>.svc`, an address env var (`*_HOST`, `*_URL`, `*_ENDPOINT`, …) holding a bare Service name, or a log collector (which ships to a backend by name). Agents that reach the API server by IP (KUBERNETES_SERVICE_HOST) and resolve nothing are not affected; network agents, kube-proxy and node-local DNS are exempt: they must not depend on cluster DNS, which depends on them.",
    howToFix:
      'Set `dnsPolicy: ClusterFirstWithHostNet` when the agent talks to Services by name; set `dnsPolicy: Default` to state that it does not.',
    example:
      'spec:\n  template:\n    spec:\n      hostNetwork: true\n      # dnsPolicy unset: ClusterFirst, which acts as Default here\n      containers:\n        - name: shipper\n          env: [{name: BACKEND_URL, value: "http://loki.logging.svc:3100"}]',
  },
  check(ds, ctx) {
    const spec = podSpec(ds);
    if (spec.hostNetwork !== true || EXPLICIT.has(spec.dnsPolicy ?? '')) return [];
    // Cluster DNS runs on the pod network these agents provide: they must not depend on it.
    if (findRole(ctx.roles(ds), 'network', 'service-proxy', 'dns')) return [];
    const evidence = templateContainers(ds, { init: true })
      .map((r) => serviceNameEvidence(r.container))
      .find(Boolean);
    const logging = findRole(ctx.roles(ds), 'logging');
    if (!evidence && !logging) return [];
    return [
      {
        message: `hostNetwork with dnsPolicy ${spec.dnsPolicy ?? 'unset (ClusterFirst)'}: the pod gets the node's resolv.conf, so cluster Service names do not resolve, yet ${evidence ? `it names a Service (${evidence})` : 'a log collector usually ships to an in-cluster backend by Service name'}`,
        path: `${POD_SPEC}.dnsPolicy`,
        fix: 'resolve Services through cluster DNS:\ndnsPolicy: ClusterFirstWithHostNet',
      },
    ];
  },
};
