/**
 * Probes for the lint rules: which containers of a DaemonSet are long-running agents that need
 * their own probes, and a probe to suggest that the container is known to answer.
 */
import type { Container, ContainerPort, DaemonSet, Probe } from '../model/k8s-types.js';
import { isPlaceholder } from '../model/roles.js';
import { templateContainers, type ContainerRef } from './template.js';

/**
 * Images of helper sidecars that serve the agent rather than being one: the CSI registrar and
 * liveness sidecars, RBAC proxies in front of a metrics port, config reloaders, artifact
 * followers. Their health follows the agent's; they are not probed on their own.
 */
const HELPER_IMAGE =
  /(^|\/)((csi-)?node-driver-registrar|livenessprobe|kube-rbac-proxy|config-reloader|configmap-reload|prometheus-config-reloader|falcoctl)(:|@|$)/;

/**
 * A shell script that parks with `sleep infinity` once its task is done (an updater that runs
 * once, then waits for the reboot it asked for), with nothing started in the background: there
 * is no long-running process to probe, and no state that grows.
 */
export function isOneShot(c: Container): boolean {
  const argv = [...(c.command ?? []), ...(c.args ?? [])];
  if (!/(^|\/)(ba|da|a)?sh$/.test(argv[0] ?? '') || argv[1] !== '-c') return false;
  const script = argv.slice(2).join('\n');
  // `cmd &` starts a daemon in the background; `&&` and redirections such as `2>&1` do not.
  return /(^|[\s;&|])sleep\s+(infinity|inf)\b/.test(script) && !/(^|[^&>])&(?![&>\d])/.test(script);
}

/**
 * The kubelet-probe helpers of CSI drivers (livenessprobe, or a container named for it, such as
 * ceph-csi's liveness-prometheus): they serve the agent's health, they are not agents.
 */
const LIVENESS_SIDECAR = /(^|-)liveness(-|$)/;

/** The CSI registrar sidecar by its conventional container name, whatever registry rebuilt its image. */
const REGISTRAR = /(^|-)(node-)?driver-registrar$/;

/**
 * True when the container is a helper sidecar (see HELPER_IMAGE, LIVENESS_SIDECAR), a
 * placeholder that only waits (pause, sleep), or a one-shot script that then sleeps.
 */
export function isHelper(c: Container): boolean {
  return (
    HELPER_IMAGE.test(c.image ?? '') ||
    LIVENESS_SIDECAR.test(c.name ?? '') ||
    REGISTRAR.test(c.name ?? '') ||
    isPlaceholder(c) ||
    PLACEHOLDER.test([...(c.command ?? []), ...(c.args ?? [])].join(' ').trim()) ||
    isOneShot(c)
  );
}

/** A container that only sleeps (Longhorn's image pre-pull: `echo pulled && sleep infinity`). */
const PLACEHOLDER = /(^|\s|&&|;)sleep\s+(infinity|inf|\d+)\s*$/;

/**
 * The long-running agent containers, each judged on its own probes: regular containers and
 * restartable init containers (sidecars), without helper sidecars. Init containers run to
 * completion before the pod starts and take no probes.
 */
export function agentContainers(ds: DaemonSet): ContainerRef[] {
  return templateContainers(ds, { sidecars: true }).filter((r) => !isHelper(r.container));
}

/** The handler part of a probe (httpGet, tcpSocket, grpc or exec), if it has one. */
function handlerOf(probe: Probe | undefined): Probe | undefined {
  if (!probe) return undefined;
  for (const key of ['httpGet', 'tcpSocket', 'grpc', 'exec'] as const) {
    if (probe[key] !== undefined) return { [key]: probe[key] };
  }
  return undefined;
}

/** Names that suggest a port serves health or metrics over TCP. */
const HEALTH_PORT = /health|ready|live|metrics|http|probe/i;

/** A TCP port the container declares, health- or metrics-named first. */
function declaredTcpPort(c: Container): ContainerPort | undefined {
  const tcp = (c.ports ?? []).filter(
    (p) => (p.protocol ?? 'TCP').toUpperCase() === 'TCP' && typeof p.containerPort === 'number',
  );
  return tcp.find((p) => HEALTH_PORT.test(p.name ?? '')) ?? tcp[0];
}

/**
 * A probe handler the container is known to answer, and why: the handler of its other probe
 * (a liveness probe's endpoint is served), else a tcpSocket on a TCP port it declares (by name
 * when it has one), else an exec command to fill in. Never a path the container is not known to
 * serve, and never a UDP port (such as DNS on 53).
 */
export function probeSuggestion(c: Container, kind: 'readiness' | 'liveness'): { handler: Probe; source: string } {
  const others =
    kind === 'readiness'
      ? ([
          ['liveness', c.livenessProbe],
          ['startup', c.startupProbe],
        ] as const)
      : ([
          ['readiness', c.readinessProbe],
          ['startup', c.startupProbe],
        ] as const);
  for (const [name, probe] of others) {
    const handler = handlerOf(probe);
    if (handler) return { handler, source: `the endpoint its ${name} probe already uses` };
  }
  const port = declaredTcpPort(c);
  if (port) {
    return {
      handler: { tcpSocket: { port: port.name ?? port.containerPort } },
      source: `a TCP connection to port ${port.name ? `${port.name} (${port.containerPort})` : port.containerPort}, which it declares; use its health endpoint instead if it serves one`,
    };
  }
  return {
    handler: { exec: { command: ['<a command that fails when the agent is unhealthy>'] } },
    source: 'a command, since it declares no TCP port',
  };
}
