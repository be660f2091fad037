/**
 * `run-as-non-root`: containers run as a non-root user.
 * Motivation: the DaemonSet guide, 生产实践 "安全上下文最小化：以只读根文件系统、runAsNonRoot 运行采集器";
 * and the kubelet's check that refuses to start a container whose runAsUser 0 contradicts
 * runAsNonRoot (CreateContainerConfigError).
 */
import type { Container } from '../../model/k8s-types.js';
import { hostPaths, isPlaceholder } from '../../model/roles.js';
import type { LintRule, RuleFinding } from '../types.js';
import {
  containerLabel,
  findRole,
  podSpec,
  roleJustified,
  rootRole,
  templateContainers,
  windowsPodEvidence,
  yamlBlock,
  type ContainerRef,
} from '../template.js';

/**
 * Why the container needs uid 0 by what it is given: privileged (its capabilities are uid 0's),
 * or added capabilities, which Kubernetes grants without ambient capabilities, so a non-root
 * process loses them at exec (capabilities(7)). Undefined when nothing it is given needs root.
 */
function rootNeed(c: Container): string | undefined {
  if (c.securityContext?.privileged === true)
    return "it is privileged, and a privileged container's capabilities are uid 0's (privileged-container judges the privilege)";
  const add = c.securityContext?.capabilities?.add ?? [];
  if (add.length)
    return `it adds ${add.join(', ')}, and Kubernetes sets no ambient capabilities, so a non-root process loses them at exec (capabilities(7)) unless its binary carries file capabilities`;
  return undefined;
}

/** Container logs and container-runtime state: owned by root and not world-readable on the node. */
const CONTAINER_LOGS = ['/var/log/pods', '/var/log/containers', '/var/lib/docker/containers'];
const RUNTIME_STATE = [
  '/var/lib/docker',
  '/var/lib/containerd',
  '/var/lib/containers',
  '/run/containerd',
  '/var/run/containerd',
  '/run/crio',
  '/var/run/crio',
  '/var/run/docker.sock',
  '/run/docker.sock',
];
/** The whole run directory holds the runtime sockets; a file under it (utmp) need not be root-only. */
const RUN_DIRS = ['/var/run', '/run'];

function under(p: string, roots: string[]): boolean {
  const path = p.replace(/\/$/, '');
  return roots.some((r) => path === r || path.startsWith(`${r}/`));
}

/** Why the container needs uid 0 to read what it mounts (container logs for a collector, the runtime's state for anyone), or undefined. */
function rootOnlyHostPath(paths: string[], logging: boolean, monitoring: boolean): string | undefined {
  const logs = paths.find((p) => under(p, CONTAINER_LOGS) || p.replace(/\/$/, '') === '/var/log');
  if (logging && logs)
    return `a log collector reads the container logs under hostPath ${logs}, which the kubelet and runtime write as root, mode 0640`;
  // The runtime's sockets and state are root-only whatever the agent's role; the whole run directory counts for a monitor or collector.
  const state = paths.find(
    (p) => under(p, RUNTIME_STATE) || ((logging || monitoring) && RUN_DIRS.includes(p.replace(/\/$/, ''))),
  );
  if (state)
    return `it mounts the container runtime's state or socket under hostPath ${state}, which only root may read`;
  return undefined;
}

/** The `run-as-non-root` rule, as the registry lists it. */
export const runAsNonRoot: LintRule = {
  meta: {
    id: 'run-as-non-root',
    severity: 'error',
    severityNote:
      'warning for a container that may run as root; error when runAsNonRoot contradicts runAsUser 0 (the kubelet refuses to start it); info where uid 0 is needed: network, CSI, proxy, device-plugin, labeller, node-local DNS, security, node-reboot, local-volume and driver-installer agents, problem detectors and Secrets Store CSI providers (a socket in a root-owned host directory); privileged containers and containers that add capabilities (no ambient capabilities: a non-root process loses them at exec); log collectors reading container logs and monitors reading the container runtime state',
    description:
      'Every container runs as a non-root user (`runAsNonRoot: true` or a non-zero `runAsUser`, on the container or the pod). Windows pods (`spec.os.name`, a `kubernetes.io/os: windows` selector, HostProcess) are not judged: `runAsUser` cannot be set there, and the account is `windowsOptions.runAsUserName`.',
    rationale:
      "An agent running as root on every node turns any bug in it into root on the host paths it mounts. The DaemonSet guide's production practice runs collectors with runAsNonRoot. Setting runAsNonRoot with runAsUser 0 is worse: the kubelet refuses to start the container.",
    howToFix:
      'Set `securityContext.runAsNonRoot: true` and a `runAsUser` the image supports (65534 for node-exporter-style agents). A collector that must read root-owned 0640 log files keeps uid 0 but drops ALL capabilities and mounts the logs read-only.',
    example:
      "containers:\n  - name: agent\n    image: example/agent:1.4.2\n    # no securityContext: the image's user, often root",
  },
  check(ds, ctx) {
    // uid-based: runAsUser cannot be set on Windows (validateWindows), where the kubelet judges
    // runAsNonRoot by the user name (security_context_windows.go verifyRunAsNonRoot).
    if (windowsPodEvidence(ds)) return [];
    const pod = podSpec(ds).securityContext;
    const roles = ctx.roles(ds);
    const rootRefs: ContainerRef[] = [];
    const out: RuleFinding[] = [];
    for (const ref of templateContainers(ds, { init: true })) {
      // A placeholder (pause runs as 65535; sleep does nothing) is not judged.
      if (isPlaceholder(ref.container)) continue;
      const sc = ref.container.securityContext;
      const nonRoot = sc?.runAsNonRoot ?? pod?.runAsNonRoot;
      const user = sc?.runAsUser ?? pod?.runAsUser;
      if (nonRoot === true && user === 0) {
        out.push({
          severity: 'error',
          message: `${containerLabel(ref)} sets runAsNonRoot with runAsUser 0: the kubelet refuses to start it (CreateContainerConfigError: container's runAsUser breaks non-root policy)`,
          path: `${ref.path}.securityContext.runAsUser`,
          fix: `run as a non-zero uid the image supports:\n${yamlBlock({ securityContext: { runAsNonRoot: true, runAsUser: 65534 } })}`,
        });
        continue;
      }
      if (nonRoot === true || (user !== undefined && user > 0)) continue;
      rootRefs.push(ref);
    }
    if (!rootRefs.length) return out;
    const needsRoot = rootRole(roles);
    if (needsRoot)
      return [...out, roleJustified(needsRoot, rootRefs, 'may run as root', 'securityContext.runAsNonRoot')];
    const logging = findRole(roles, 'logging');
    const paths = hostPaths(podSpec(ds));
    const rootOnly = rootOnlyHostPath(paths, Boolean(logging), Boolean(findRole(roles, 'monitoring')));
    for (const ref of rootRefs) {
      const why = rootNeed(ref.container) ?? rootOnly;
      if (why) {
        out.push({
          severity: 'info',
          message: `${containerLabel(ref)} may run as root, which it needs: ${why}`,
          path: `${ref.path}.securityContext.runAsNonRoot`,
          fix: 'nothing required; keep everything else minimal (drop the capabilities it does not use, mount host paths readOnly); to record the decision, add the annotation ds-doctor.io/ignore with this rule id',
        });
        continue;
      }
      const explicitRoot = (ref.container.securityContext?.runAsUser ?? pod?.runAsUser) === 0;
      out.push({
        severity: 'warning',
        message: `${containerLabel(ref)} ${explicitRoot ? 'runs as root (runAsUser 0)' : 'may run as root (no runAsNonRoot or runAsUser: the image decides)'}${logging ? '; a log collector that reads root-owned 0640 log files needs uid 0, but nothing else: then drop ALL capabilities and mount the logs readOnly' : ''}`,
        path: `${ref.path}.securityContext.runAsNonRoot`,
        fix: logging
          ? `run as non-root when the log files are readable, otherwise keep uid 0 with nothing else:\n${yamlBlock({ securityContext: { runAsNonRoot: true, runAsUser: 65534 } })}`
          : `run as a non-root uid the image supports:\n${yamlBlock({ securityContext: { runAsNonRoot: true, runAsUser: 65534 } })}`,
      });
    }
    return out;
  },
};
