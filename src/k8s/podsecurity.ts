/**
 * Pod Security admission: the checks of the baseline and restricted levels a DaemonSet's pod
 * can fail, with the API server's words (`kubernetes v1.35
 * staging/src/k8s.io/pod-security-admission/policy/check_*.go`), and the level a namespace
 * enforces (`.../admission/admission.go#EvaluatePod`, the `pod-security.kubernetes.io/enforce`
 * label). Checks a template cannot be judged on offline (AppArmor, SELinux, procMount, sysctls,
 * Windows host process) are not mirrored.
 */
import type { Container, Namespace, PodSpec, SecurityContext } from '../model/k8s-types.js';
import { wantedHostPorts } from './hostports.js';

export type PodSecurityLevel = 'privileged' | 'baseline' | 'restricted';

/** One failed check: the reason and its detail, as `policy.CheckResult` carries them. */
export interface CheckFailure {
  reason: string;
  detail: string;
}

/** The level and version the namespace enforces; undefined when it enforces nothing (privileged). */
export function enforcedLevel(ns: Namespace | undefined): { level: PodSecurityLevel; version: string } | undefined {
  const labels = ns?.metadata?.labels ?? {};
  const level = labels['pod-security.kubernetes.io/enforce'];
  if (level !== 'baseline' && level !== 'restricted') return undefined;
  return { level, version: labels['pod-security.kubernetes.io/enforce-version'] || 'latest' };
}

/** Every container the checks visit: init containers, then containers (`visitContainers`). */
function containersOf(spec: PodSpec): Container[] {
  return [...(spec.initContainers ?? []), ...(spec.containers ?? [])];
}

function quoted(names: string[]): string {
  return names.map((n) => `"${n}"`).join(', ');
}

/** `container "a"` or `containers "a", "b"` (`pluralize` in policy/helpers.go). */
function containerWord(names: string[]): string {
  return `${names.length === 1 ? 'container' : 'containers'} ${quoted(names)}`;
}

/** `check_hostNamespaces.go#hostNamespaces_1_0`. */
export function checkHostNamespaces(spec: PodSpec): CheckFailure | undefined {
  const set = [
    spec.hostNetwork && 'hostNetwork=true',
    spec.hostPID && 'hostPID=true',
    spec.hostIPC && 'hostIPC=true',
  ].filter((x): x is string => Boolean(x));
  return set.length ? { reason: 'host namespaces', detail: set.join(', ') } : undefined;
}

/** `check_hostPorts.go#hostPorts_1_0`: the pod as admitted, hostNetwork ports defaulted. */
export function checkHostPorts(spec: PodSpec): CheckFailure | undefined {
  const names: string[] = [];
  const ports: number[] = [];
  for (const c of containersOf(spec)) {
    const own = wantedHostPorts({ ...spec, containers: [c], initContainers: [] }, true).map((p) => p.port);
    if (!own.length) continue;
    names.push(c.name);
    for (const p of own) if (!ports.includes(p)) ports.push(p);
  }
  if (!names.length) return undefined;
  const verb = names.length === 1 ? 'uses' : 'use';
  return {
    reason: 'hostPort',
    detail: `${containerWord(names)} ${verb} ${ports.length === 1 ? 'hostPort' : 'hostPorts'} ${ports.join(', ')}`,
  };
}

/** `check_privileged.go#privileged_1_0`. */
export function checkPrivileged(spec: PodSpec): CheckFailure | undefined {
  const names = containersOf(spec)
    .filter((c) => c.securityContext?.privileged === true)
    .map((c) => c.name);
  return names.length
    ? { reason: 'privileged', detail: `${containerWord(names)} must not set securityContext.privileged=true` }
    : undefined;
}

/** The capabilities baseline allows to be added (`check_capabilities_baseline.go`). */
const DEFAULT_CAPABILITIES = new Set([
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
]);

/** `check_capabilities_baseline.go#capabilitiesBaseline_1_0`. */
export function checkCapabilitiesBaseline(spec: PodSpec): CheckFailure | undefined {
  const names: string[] = [];
  const caps: string[] = [];
  for (const c of containersOf(spec)) {
    const bad = (c.securityContext?.capabilities?.add ?? []).filter((cap) => !DEFAULT_CAPABILITIES.has(cap));
    if (!bad.length) continue;
    names.push(c.name);
    for (const cap of bad) if (!caps.includes(cap)) caps.push(cap);
  }
  return names.length
    ? {
        reason: 'non-default capabilities',
        detail: `${containerWord(names)} must not include ${quoted(caps.sort())} in securityContext.capabilities.add`,
      }
    : undefined;
}

/** `check_hostPathVolumes.go#hostPathVolumes_1_0`. */
export function checkHostPathVolumes(spec: PodSpec): CheckFailure | undefined {
  const names = (spec.volumes ?? []).filter((v) => v.hostPath).map((v) => v.name);
  return names.length
    ? { reason: 'hostPath volumes', detail: `${names.length === 1 ? 'volume' : 'volumes'} ${quoted(names)}` }
    : undefined;
}

function seccompType(sc: SecurityContext | PodSpec['securityContext'] | undefined): string | undefined {
  return (sc as { seccompProfile?: { type?: string } } | undefined)?.seccompProfile?.type;
}

/** `check_seccompProfile_baseline.go#seccompProfileBaseline_1_19`. */
export function checkSeccompBaseline(spec: PodSpec): CheckFailure | undefined {
  const details: string[] = [];
  if (seccompType(spec.securityContext) === 'Unconfined')
    details.push('pod must not set securityContext.seccompProfile.type to "Unconfined"');
  const names = containersOf(spec)
    .filter((c) => seccompType(c.securityContext) === 'Unconfined')
    .map((c) => c.name);
  if (names.length)
    details.push(`${containerWord(names)} must not set securityContext.seccompProfile.type to "Unconfined"`);
  return details.length ? { reason: 'seccompProfile', detail: details.join('; ') } : undefined;
}

/** `check_allowPrivilegeEscalation.go#allowPrivilegeEscalation_1_8`. */
export function checkAllowPrivilegeEscalation(spec: PodSpec): CheckFailure | undefined {
  const names = containersOf(spec)
    .filter((c) => c.securityContext?.allowPrivilegeEscalation !== false)
    .map((c) => c.name);
  return names.length
    ? {
        reason: 'allowPrivilegeEscalation != false',
        detail: `${containerWord(names)} must set securityContext.allowPrivilegeEscalation=false`,
      }
    : undefined;
}

/** `check_capabilities_restricted.go#capabilitiesRestricted_1_22`. */
export function checkCapabilitiesRestricted(spec: PodSpec): CheckFailure | undefined {
  const noDrop: string[] = [];
  const added: string[] = [];
  const caps: string[] = [];
  for (const c of containersOf(spec)) {
    const capsOf = c.securityContext?.capabilities;
    if (!(capsOf?.drop ?? []).includes('ALL')) noDrop.push(c.name);
    const bad = (capsOf?.add ?? []).filter((cap) => cap !== 'NET_BIND_SERVICE');
    if (!bad.length) continue;
    added.push(c.name);
    for (const cap of bad) if (!caps.includes(cap)) caps.push(cap);
  }
  const details: string[] = [];
  if (noDrop.length) details.push(`${containerWord(noDrop)} must set securityContext.capabilities.drop=["ALL"]`);
  if (added.length)
    details.push(`${containerWord(added)} must not include ${quoted(caps.sort())} in securityContext.capabilities.add`);
  return details.length ? { reason: 'unrestricted capabilities', detail: details.join('; ') } : undefined;
}

/** `check_restrictedVolumes.go#restrictedVolumes_1_0`: only these volume sources are allowed. */
const ALLOWED_VOLUMES = new Set([
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'persistentVolumeClaim',
  'projected',
  'secret',
]);

export function checkRestrictedVolumes(spec: PodSpec): CheckFailure | undefined {
  const names: string[] = [];
  const types: string[] = [];
  for (const v of spec.volumes ?? []) {
    const type = Object.keys(v).find((k) => k !== 'name' && !ALLOWED_VOLUMES.has(k) && v[k] !== undefined);
    if (!type) continue;
    names.push(v.name);
    if (!types.includes(type)) types.push(type);
  }
  if (!names.length) return undefined;
  const verb = names.length === 1 ? 'uses' : 'use';
  return {
    reason: 'restricted volume types',
    detail: `${names.length === 1 ? 'volume' : 'volumes'} ${quoted(names)} ${verb} ${types.length === 1 ? 'restricted volume type' : 'restricted volume types'} ${quoted(types.sort())}`,
  };
}

/** `check_runAsNonRoot.go#runAsNonRoot_1_0`. */
export function checkRunAsNonRoot(spec: PodSpec): CheckFailure | undefined {
  const pod = spec.securityContext?.runAsNonRoot;
  const details: string[] = [];
  if (pod === false) details.push('pod must not set securityContext.runAsNonRoot=false');
  const explicitFalse = containersOf(spec)
    .filter((c) => c.securityContext?.runAsNonRoot === false)
    .map((c) => c.name);
  if (explicitFalse.length)
    details.push(`${containerWord(explicitFalse)} must not set securityContext.runAsNonRoot=false`);
  if (pod !== true) {
    const unset = containersOf(spec)
      .filter((c) => c.securityContext?.runAsNonRoot === undefined)
      .map((c) => c.name);
    if (unset.length && pod === undefined)
      details.push(`pod or ${containerWord(unset)} must set securityContext.runAsNonRoot=true`);
  }
  return details.length ? { reason: 'runAsNonRoot != true', detail: details.join('; ') } : undefined;
}

/** `check_runAsUser.go#runAsUser_1_23`. */
export function checkRunAsUser(spec: PodSpec): CheckFailure | undefined {
  const details: string[] = [];
  if (spec.securityContext?.runAsUser === 0) details.push('pod must not set runAsUser=0');
  const names = containersOf(spec)
    .filter((c) => c.securityContext?.runAsUser === 0)
    .map((c) => c.name);
  if (names.length) details.push(`${containerWord(names)} must not set runAsUser=0`);
  return details.length ? { reason: 'runAsUser=0', detail: details.join('; ') } : undefined;
}

/** `check_seccompProfile_restricted.go#seccompProfileRestricted_1_19`. */
export function checkSeccompRestricted(spec: PodSpec): CheckFailure | undefined {
  const ok = (t: string | undefined) => t === 'RuntimeDefault' || t === 'Localhost';
  const podType = seccompType(spec.securityContext);
  const details: string[] = [];
  if (podType !== undefined && !ok(podType))
    details.push(`pod must not set securityContext.seccompProfile.type to "${podType}"`);
  const bad = containersOf(spec)
    .filter((c) => seccompType(c.securityContext) !== undefined && !ok(seccompType(c.securityContext)))
    .map((c) => c.name);
  if (bad.length)
    details.push(
      `${containerWord(bad)} must not set securityContext.seccompProfile.type to ${quoted([...new Set(bad.map((n) => seccompType(containersOf(spec).find((c) => c.name === n)!.securityContext)!))])}`,
    );
  if (!ok(podType)) {
    const unset = containersOf(spec)
      .filter((c) => seccompType(c.securityContext) === undefined)
      .map((c) => c.name);
    if (unset.length)
      details.push(
        `pod or ${containerWord(unset)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
      );
  }
  return details.length ? { reason: 'seccompProfile', detail: details.join('; ') } : undefined;
}

type Check = (spec: PodSpec) => CheckFailure | undefined;

/** The registry's order (`policy/registry.go#EvaluatePod`): baseline checks, then overlapping baseline or restricted ones. */
const BASELINE: Check[] = [checkHostNamespaces, checkHostPorts, checkPrivileged];
const BASELINE_OVERLAPPING: Check[] = [checkCapabilitiesBaseline, checkHostPathVolumes, checkSeccompBaseline];
const RESTRICTED: Check[] = [
  checkAllowPrivilegeEscalation,
  checkCapabilitiesRestricted,
  checkRestrictedVolumes,
  checkRunAsNonRoot,
  checkRunAsUser,
  checkSeccompRestricted,
];

/** The failed checks of `level` for a pod spec (`policy/registry.go#checkRegistry.EvaluatePod`). */
export function evaluatePod(level: PodSecurityLevel, spec: PodSpec): CheckFailure[] {
  if (level === 'privileged') return [];
  const checks = [...BASELINE, ...(level === 'baseline' ? BASELINE_OVERLAPPING : RESTRICTED)];
  return checks.map((c) => c(spec)).filter((f): f is CheckFailure => f !== undefined);
}

/**
 * The API server's refusal of a pod named `podName`, or undefined when the namespace admits it
 * (`admission/admission.go#EvaluatePod`, `policy.AggregateCheckResults`).
 */
export function podSecurityRefusal(ns: Namespace | undefined, podName: string, spec: PodSpec): string | undefined {
  const enforced = enforcedLevel(ns);
  if (!enforced) return undefined;
  const failures = evaluatePod(enforced.level, spec);
  if (!failures.length) return undefined;
  const reasons = failures.map((f) => (f.detail ? `${f.reason} (${f.detail})` : f.reason)).join(', ');
  return `pods "${podName}" is forbidden: violates PodSecurity "${enforced.level}:${enforced.version}": ${reasons}`;
}
