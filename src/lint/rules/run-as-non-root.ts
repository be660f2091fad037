/**
 * `run-as-non-root`: containers run as a non-root user.
 * Motivation: the DaemonSet guide, 生产实践 "安全上下文最小化：以只读根文件系统、runAsNonRoot 运行采集器";
 * and the kubelet's check that refuses to start a container whose runAsUser 0 contradicts
 * runAsNonRoot (CreateContainerConfigError).
 */
import type { LintRule, RuleFinding } from '../types.js';
import { containerLabel, findRole, podSpec, roleJustified, rootRole, templateContainers, yamlBlock, type ContainerRef } from '../template.js';

/** The `run-as-non-root` rule, as the registry lists it. */
export const runAsNonRoot: LintRule = {
  meta: {
    id: 'run-as-non-root',
    severity: 'error',
    severityNote:
      'warning for a container that may run as root; error when runAsNonRoot contradicts runAsUser 0 (the kubelet refuses to start it); info for agents whose job needs uid 0: network, CSI, proxy, device-plugin, node-local DNS, security, node-reboot and local-volume agents and problem detectors',
    description: 'Every container runs as a non-root user (`runAsNonRoot: true` or a non-zero `runAsUser`, on the container or the pod).',
    rationale:
      "An agent running as root on every node turns any bug in it into root on the host paths it mounts. The DaemonSet guide's production practice runs collectors with runAsNonRoot. Setting runAsNonRoot with runAsUser 0 is worse: the kubelet refuses to start the container.",
    howToFix:
      'Set `securityContext.runAsNonRoot: true` and a `runAsUser` the image supports (65534 for node-exporter-style agents). A collector that must read root-owned 0640 log files keeps uid 0 but drops ALL capabilities and mounts the logs read-only.',
    example: "containers:\n  - name: agent\n    image: example/agent:1.4.2\n    # no securityContext: the image's user, often root",
  },
  check(ds, ctx) {
    const pod = podSpec(ds).securityContext;
    const roles = ctx.roles(ds);
    const rootRefs: ContainerRef[] = [];
    const out: RuleFinding[] = [];
    for (const ref of templateContainers(ds, { init: true })) {
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
    if (needsRoot) return [...out, roleJustified(needsRoot, rootRefs, 'may run as root', 'securityContext.runAsNonRoot')];
    const logging = findRole(roles, 'logging');
    for (const ref of rootRefs) {
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
