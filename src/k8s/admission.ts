/**
 * ResourceQuota admission of a new pod: its usage (`kubernetes v1.35
 * pkg/quota/v1/evaluator/core/pods.go#PodUsageFunc`), the requests and limits a quota makes
 * mandatory (`pods.go#podEvaluator.Constraints`), and how many such pods the quota still admits
 * (`plugin/pkg/admission/resourcequota/controller.go#CheckRequest`), with the API server's words.
 * Quotas with scopes are not judged.
 */
import type { Container, LimitRange, PodSpec, ResourceQuota } from '../model/k8s-types.js';
import { podRequests } from './resources.js';
import { formatAmount, resourceAmount } from './quantity.js';
import { compareText } from '../model/order.js';

/** The compute resources a quota may name for pods, with the pod-spec resource behind each. */
const COMPUTE: Record<string, { kind: 'requests' | 'limits'; resource: string }> = {
  cpu: { kind: 'requests', resource: 'cpu' },
  'requests.cpu': { kind: 'requests', resource: 'cpu' },
  memory: { kind: 'requests', resource: 'memory' },
  'requests.memory': { kind: 'requests', resource: 'memory' },
  'limits.cpu': { kind: 'limits', resource: 'cpu' },
  'limits.memory': { kind: 'limits', resource: 'memory' },
};

function amount(resource: string, q: string | undefined): number {
  if (q === undefined) return 0;
  try {
    return resourceAmount(resource, q);
  } catch {
    return 0;
  }
}

/** Sum of containers' limits, at least any init container's (`PodLimits`, without overhead). */
function podLimits(spec: PodSpec, resource: string): number {
  const sum = (spec.containers ?? []).reduce((s, c) => s + amount(resource, c.resources?.limits?.[resource]), 0);
  const init = Math.max(
    0,
    ...(spec.initContainers ?? []).map((c) => amount(resource, c.resources?.limits?.[resource])),
  );
  return Math.max(sum, init);
}

/** The quota usage of one pod (`PodUsageFunc`): pods, count/pods, and the compute resources. */
export function podQuotaUsage(spec: PodSpec): Map<string, number> {
  const requests = podRequests(spec);
  const usage = new Map<string, number>([
    ['pods', 1],
    ['count/pods', 1],
  ]);
  for (const [name, { kind, resource }] of Object.entries(COMPUTE)) {
    usage.set(name, kind === 'requests' ? (requests.get(resource) ?? 0) : podLimits(spec, resource));
  }
  return usage;
}

/**
 * The quota as it reads once one pod's `usage` is released (the quota controller's recalculation
 * after a deletion, `pkg/controller/resourcequota/resource_quota_controller.go#syncResourceQuota`).
 */
export function withReleasedUsage(quota: ResourceQuota, usage: Map<string, number>): ResourceQuota {
  const used = { ...(quota.status?.used ?? {}) };
  for (const [name, q] of Object.entries(used)) {
    const minus = usage.get(name);
    if (minus === undefined) continue;
    const left = Math.max(0, amount(unit(name), q) - minus);
    used[name] = unit(name) === 'cpu' ? `${left}m` : String(left);
  }
  return { ...quota, status: { ...quota.status, used } };
}

/** Whether a container sets the request or limit a quota resource needs (requests default from limits). */
function containerSets(c: Container, name: string): boolean {
  const { kind, resource } = COMPUTE[name]!;
  if (kind === 'limits') return c.resources?.limits?.[resource] !== undefined;
  return c.resources?.requests?.[resource] !== undefined || c.resources?.limits?.[resource] !== undefined;
}

/** `podEvaluator.Constraints`: "must specify limits.memory for: agent", or undefined. */
export function missingConstraints(quota: ResourceQuota, spec: PodSpec): string | undefined {
  const required = Object.keys(quota.spec?.hard ?? {})
    .filter((r) => COMPUTE[r])
    .sort();
  const containers = [...(spec.initContainers ?? []), ...(spec.containers ?? [])];
  const parts = required
    .map((r) => ({
      r,
      missing: containers
        .filter((c) => !containerSets(c, r))
        .map((c) => c.name)
        .sort(),
    }))
    .filter((x) => x.missing.length)
    .map((x) => `${x.r} for: ${x.missing.join(',')}`);
  return parts.length ? `must specify ${parts.join('; ')}` : undefined;
}

function unit(name: string): string {
  return COMPUTE[name]?.resource ?? 'pods';
}

/**
 * How many pods of `spec` the quota still admits (Infinity when it limits none of their
 * usage), and the API's refusal of the first one over.
 */
export function quotaRoom(quota: ResourceQuota, spec: PodSpec): { room: number; refusal: (podName: string) => string } {
  const usage = podQuotaUsage(spec);
  const hard = quota.spec?.hard ?? {};
  const used = quota.status?.used ?? {};
  let room = Number.POSITIVE_INFINITY;
  let worst = '';
  for (const [name, q] of Object.entries(hard)) {
    const per = usage.get(name);
    if (per === undefined || per <= 0) continue;
    const free = amount(unit(name), q) - amount(unit(name), used[name]);
    const fits = Math.max(0, Math.floor(free / per));
    if (fits < room) {
      room = fits;
      worst = name;
    }
  }
  const refusal = (podName: string) => {
    const u = unit(worst);
    return `pods "${podName}" is forbidden: exceeded quota: ${quota.metadata?.name}, requested: ${worst}=${formatAmount(u, usage.get(worst) ?? 0)}, used: ${worst}=${formatAmount(u, amount(u, used[worst]))}, limited: ${worst}=${formatAmount(u, amount(u, hard[worst]))}`;
  };
  return { room, refusal };
}

/**
 * The namespace's quotas against `count` new pods of `spec`: how many are admitted and the
 * refusal of the others (`resourcequota/controller.go#checkRequest`, "failed quota" for
 * missing requests or limits). Scoped quotas are skipped and returned for a note.
 */
export function quotaAdmission(
  quotas: ResourceQuota[],
  spec: PodSpec,
  podName: string,
): { admitted: number; refusal?: string; skipped: string[] } {
  let admitted = Number.POSITIVE_INFINITY;
  let refusal: string | undefined;
  const skipped: string[] = [];
  for (const q of [...quotas].sort((a, b) => compareText(a.metadata?.name ?? '', b.metadata?.name ?? ''))) {
    const scoped = q.spec as { scopes?: unknown[]; scopeSelector?: unknown } | undefined;
    if (scoped?.scopes?.length || scoped?.scopeSelector) {
      skipped.push(q.metadata?.name ?? '');
      continue;
    }
    const missing = missingConstraints(q, spec);
    if (missing)
      return {
        admitted: 0,
        refusal: `pods "${podName}" is forbidden: failed quota: ${q.metadata?.name}: ${missing}`,
        skipped,
      };
    const { room, refusal: words } = quotaRoom(q, spec);
    if (room < admitted) {
      admitted = room;
      refusal = words(podName);
    }
  }
  return { admitted, ...(refusal !== undefined && Number.isFinite(admitted) ? { refusal } : {}), skipped };
}

/**
 * LimitRange admission of a pod (`kubernetes v1.35 plugin/pkg/admission/limitranger/admission.go`):
 * the Container items' defaults merged into containers without them
 * (`defaultContainerResourceRequirements`, `mergeContainerResources`), then their min and max
 * (`PodValidateLimitFunc`), then the pod's own validation of requests against limits
 * (`pkg/apis/core/validation/validation.go#ValidateResourceRequirements`). Returns the API's
 * refusal, or undefined.
 */
export function limitRangeRefusal(ranges: LimitRange[], spec: PodSpec, podName: string): string | undefined {
  const items = ranges.flatMap((r) => r.spec?.limits ?? []).filter((i) => i.type === 'Container');
  if (!items.length) return undefined;
  const containers = [
    ...(spec.initContainers ?? []).map((c, i) => ({ c, path: `spec.initContainers[${i}]` })),
    ...(spec.containers ?? []).map((c, i) => ({ c, path: `spec.containers[${i}]` })),
  ];
  const forbidden: string[] = [];
  const invalid: string[] = [];
  for (const { c, path } of containers) {
    const requests = { ...(c.resources?.requests ?? {}) };
    const limits = { ...(c.resources?.limits ?? {}) };
    for (const item of items) {
      for (const [r, q] of Object.entries(item.default ?? {})) if (limits[r] === undefined) limits[r] = q;
      for (const [r, q] of Object.entries(item.defaultRequest ?? {})) if (requests[r] === undefined) requests[r] = q;
    }
    for (const item of items) {
      for (const [r, q] of Object.entries(item.min ?? {})) {
        if (requests[r] === undefined)
          forbidden.push(`minimum ${r} usage per Container is ${q}.  No request is specified`);
        else if (amount(r, requests[r]) < amount(r, q))
          forbidden.push(`minimum ${r} usage per Container is ${q}, but request is ${requests[r]}`);
      }
      for (const [r, q] of Object.entries(item.max ?? {})) {
        if (limits[r] === undefined) forbidden.push(`maximum ${r} usage per Container is ${q}.  No limit is specified`);
        else if (amount(r, limits[r]) > amount(r, q))
          forbidden.push(`maximum ${r} usage per Container is ${q}, but limit is ${limits[r]}`);
      }
    }
    for (const [r, q] of Object.entries(requests)) {
      const limit = limits[r];
      if (limit !== undefined && amount(r, q) > amount(r, limit))
        invalid.push(
          `${path}.resources.requests: Invalid value: "${q}": must be less than or equal to ${r} limit of ${limit}`,
        );
    }
  }
  if (forbidden.length)
    return `pods "${podName}" is forbidden: ${forbidden.length === 1 ? forbidden[0] : `[${forbidden.join(', ')}]`}`;
  if (invalid.length)
    return `Pod "${podName}" is invalid: ${invalid.length === 1 ? invalid[0] : `[${invalid.join(', ')}]`}`;
  return undefined;
}
