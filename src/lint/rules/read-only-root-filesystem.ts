/**
 * `read-only-root-filesystem`: containers mount their root filesystem read-only.
 * Motivation: the DaemonSet guide, 生产实践 "安全上下文最小化：以只读根文件系统 … 运行采集器，降低攻击面".
 */
import type { LintRule, RuleFinding } from '../types.js';
import { isPlaceholder, kernelDriverLoader } from '../../model/roles.js';
import {
  cniBinaryInstallers,
  containerLabel,
  findRole,
  HOST_PRIVILEGED_ROLES,
  roleJustified,
  runningRoles,
  templateContainers,
  windowsPodEvidence,
  yamlBlock,
} from '../template.js';

/** The `read-only-root-filesystem` rule, as the registry lists it. */
export const readOnlyRootFilesystem: LintRule = {
  meta: {
    id: 'read-only-root-filesystem',
    severity: 'warning',
    severityNote:
      "info for network (CNI) agents, CSI node plugins, service proxies, driver installers and a security agent's kernel driver loader; when the only network evidence is an init container copying CNI plugin binaries, that init container is information and the long-running containers are judged by their own role",
    description:
      'Every container sets `securityContext.readOnlyRootFilesystem: true`. Windows pods (`spec.os.name`, a `kubernetes.io/os: windows` selector, HostProcess) are not judged: the field cannot be set there.',
    rationale:
      "A writable root filesystem lets an attacker, or a bug, drop binaries and change configuration inside an agent that runs on every node. The DaemonSet guide's production practice runs collectors with a read-only root filesystem.",
    howToFix:
      "Set `readOnlyRootFilesystem: true` and mount an `emptyDir` (or the agent's hostPath state directory) wherever it writes, e.g. /tmp or a buffer directory.",
    example:
      'containers:\n  - name: agent\n    image: example/agent:1.4.2\n    securityContext:\n      runAsNonRoot: true\n      # readOnlyRootFilesystem not set',
  },
  check(ds, ctx) {
    // readOnlyRootFilesystem cannot be set on Windows (validateWindows).
    if (windowsPodEvidence(ds)) return [];
    // A placeholder (pause, sleep) writes nothing.
    const refs = templateContainers(ds, { init: true }).filter(
      (r) => r.container.securityContext?.readOnlyRootFilesystem !== true && !isPlaceholder(r.container),
    );
    if (!refs.length) return [];
    const roles = ctx.roles(ds);
    // Init containers that only install CNI plugin binaries keep the network role's convention; the
    // long-running containers are judged by what they do (a device plugin beside them, say).
    const installerPaths = new Set(cniBinaryInstallers(ds, roles).map((r) => r.path));
    const needsIt = findRole(runningRoles(ds, roles), ...HOST_PRIVILEGED_ROLES, 'driver-installer');
    if (needsIt)
      return [roleJustified(needsIt, refs, 'root filesystem writable', 'securityContext.readOnlyRootFilesystem')];
    const installerRefs = refs.filter((r) => installerPaths.has(r.path));
    const network = findRole(roles, 'network');
    // A kernel driver loader (an init container) downloads or builds the module in its own filesystem.
    const loader = kernelDriverLoader(ds);
    const loaderRefs = loader
      ? refs.filter((r) => r.init && /driver-loader/.test(`${r.container.name ?? ''} ${r.container.image ?? ''}`))
      : [];
    const out: RuleFinding[] =
      installerRefs.length && network
        ? [roleJustified(network, installerRefs, 'root filesystem writable', 'securityContext.readOnlyRootFilesystem')]
        : [];
    if (loaderRefs.length)
      out.push(
        roleJustified(
          { role: 'security', evidence: [loader!] },
          loaderRefs,
          'root filesystem writable',
          'securityContext.readOnlyRootFilesystem',
        ),
      );
    const logging = findRole(roles, 'logging');
    const rest = refs.filter((r) => !loaderRefs.includes(r) && !installerRefs.includes(r));
    return out.concat(
      rest.map((ref): RuleFinding => ({
        message: `${containerLabel(ref)} has a writable root filesystem${logging ? ': a collector writes only its buffer and position files, which belong on a hostPath or emptyDir' : ''}`,
        path: `${ref.path}.securityContext.readOnlyRootFilesystem`,
        fix: `make the root filesystem read-only and mount an emptyDir where the agent writes (e.g. /tmp):\n${yamlBlock({ securityContext: { readOnlyRootFilesystem: true } })}`,
      })),
    );
  },
};
