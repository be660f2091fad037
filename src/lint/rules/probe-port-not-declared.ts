/**
 * `probe-port-not-declared`: an httpGet or tcpSocket probe that names its port names a port the
 * container declares.
 * Motivation: issue 39 (a CSI plugin's liveness probe on `port: healthz` with no `ports:`). The
 * kubelet resolves a named probe port in the probed container's own `ports` only
 * (kubernetes v1.35.4 pkg/probe/util.go#ResolveContainerPort, findPortByName; a numeric string
 * still parses as a number); otherwise the probe errors (pkg/kubelet/prober/prober.go#probe:
 * event "… probe errored and resulted in unknown state") and the worker throws the result away
 * (pkg/kubelet/prober/worker.go#doProbe). So the probe never records a result: the container
 * keeps its initial one (readiness: not ready; liveness: never restarted; startup: never started).
 * The API server accepts the manifest: validation checks only the name's syntax.
 */
import type { Container, Probe } from '../../model/k8s-types.js';
import type { LintRule, RuleFinding } from '../types.js';
import { containerLabel, templateContainers, yamlBlock } from '../template.js';

const KINDS = [
  ['readinessProbe', 'readiness'],
  ['livenessProbe', 'liveness'],
  ['startupProbe', 'startup'],
] as const;

/** What a probe whose result is always thrown away does, by kind (the worker's initial results). */
const CONSEQUENCE: Record<(typeof KINDS)[number][1], string> = {
  readiness:
    'the container keeps its initial result, not ready, so the pod never becomes Ready and a rolling update never gets past it',
  liveness: 'the container keeps its initial result, alive, so the kubelet never restarts it however it hangs',
  startup:
    'the container never counts as started, so its readiness and liveness probes never run and the pod never becomes Ready',
};

/** The port a probe handler names, with its handler, when it is a name (not a number or a numeric string). */
function namedPort(probe: Probe | undefined): { handler: 'httpGet' | 'tcpSocket'; port: string } | undefined {
  for (const handler of ['httpGet', 'tcpSocket'] as const) {
    const action: unknown = probe?.[handler];
    const port = typeof action === 'object' && action !== null ? (action as { port?: unknown }).port : undefined;
    if (typeof port === 'string' && !/^\d+$/.test(port)) return { handler, port };
  }
  return undefined;
}

function declared(c: Container): string {
  const ports = (c.ports ?? []).map((p) => (p.name ? `${p.name} (${p.containerPort})` : String(p.containerPort)));
  return ports.length ? `it declares ${ports.join(', ')}` : 'it declares no ports';
}

/** The `probe-port-not-declared` rule, as the registry lists it. */
export const probePortNotDeclared: LintRule = {
  meta: {
    id: 'probe-port-not-declared',
    severity: 'error',
    severityNote:
      'warning for a liveness probe, whose failure to act leaves a hung container running rather than stopping the rollout',
    description:
      "Every httpGet or tcpSocket probe that names its port (`port: healthz`) names a port in the probed container's own `ports`.",
    rationale:
      'The kubelet looks a named probe port up in the probed container\'s `ports` only (findPortByName; other containers of the pod do not count, a numeric string still works). When the name is missing the probe errors every period (event: "Readiness probe errored and resulted in unknown state") and the kubelet throws the result away, so the probe never acts: a readiness probe leaves the container not ready for ever (the pod is never Ready and the rolling update stalls on the first node), a liveness probe never restarts a hung container, a startup probe keeps the container from ever counting as started. The API server accepts the manifest: it checks only the name\'s syntax.',
    howToFix:
      "Declare the port under the container's `ports` with that name (`- name: healthz, containerPort: 9808`), or give the probe the port number.",
    example:
      'containers:\n  - name: plugin\n    livenessProbe:\n      httpGet: {path: /healthz, port: healthz}\n    # no ports: healthz is declared by another container, or nowhere',
  },
  check(ds) {
    const out: RuleFinding[] = [];
    for (const ref of templateContainers(ds, { init: true })) {
      const c = ref.container;
      // Init containers take no probes, except restartable ones (sidecars).
      if (ref.init) continue;
      for (const [field, kind] of KINDS) {
        const named = namedPort(c[field]);
        if (!named || (c.ports ?? []).some((p) => p.name === named.port)) continue;
        const elsewhere = templateContainers(ds, { init: true })
          .filter((r) => r.container !== c && (r.container.ports ?? []).some((p) => p.name === named.port))
          .map((r) => containerLabel(r));
        const number = templateContainers(ds, { init: true })
          .flatMap((r) => r.container.ports ?? [])
          .find((p) => p.name === named.port)?.containerPort;
        out.push({
          severity: kind === 'liveness' ? 'warning' : 'error',
          message: `${containerLabel(ref)}'s ${kind} probe uses port "${named.port}", which it does not declare (${declared(c)}${elsewhere.length ? `; ${elsewhere.join(', ')} declares it, which does not count` : ''}): the kubelet cannot resolve it, the probe errors every period and its result is thrown away: ${CONSEQUENCE[kind]}`,
          path: `${ref.path}.${field}.${named.handler}.port`,
          fix: `declare the port on ${containerLabel(ref)}, or use its number:\n${yamlBlock({ ports: [{ name: named.port, containerPort: number ?? '<the port it serves>' }] })}`,
        });
      }
    }
    return out;
  },
};
