/**
 * Why a bound pod is not Ready (or not available), in words: each kubelet state that
 * k8s/podhealth.ts recognises (container and init-container states, phase Failed from kubelet
 * admission or eviction, stuck termination, the node's own readiness) becomes a Reason with
 * evidence and a fix. docs/semantics.md §6.
 */
import type { ContainerState, ContainerStatus, KubeEvent, Node, Pod } from '../model/k8s-types.js';
import type { Reason } from '../model/results.js';
import { withShort } from '../model/codes.js';
import { formatDuration, parseRfc3339 } from '../model/duration.js';
import { isPodReady, secondsUntilAvailable } from '../k8s/podutil.js';
import { rollbackAdvice, type RollbackTarget } from '../k8s/rollback.js';
import { isConfigErrorWaiting, isCreatingWaiting, isImagePullWaiting, nodeReadyStatus } from '../k8s/podhealth.js';
import { isBestEffort, isCriticalPriority, kubeletEviction } from '../k8s/eviction.js';
import { exitedZero, exitText } from './exit-codes.js';
import { eventLine, latest, pressureConditionText, type RawReason } from './pod-evidence.js';
import { creatingReason } from './pod-creating.js';
import { imageRegistry, pullFailure, pullSecretNames } from '../k8s/image-pull.js';

type ContainerStateTerminated = NonNullable<ContainerState['terminated']>;

/** The DaemonSet a pod belongs to, for fix commands. */
export interface DaemonSetName {
  namespace: string;
  name: string;
  /** What `kubectl rollout undo` would restore; unknown when not given. */
  rollback?: RollbackTarget;
  /**
   * The controller would create a pod on the pod's node again once it is gone (the DaemonSet
   * tolerates the node's taints); unknown when not given.
   */
  recreated?: boolean;
}

function containerLimit(pod: Pod, container: string, resource: string): string | undefined {
  const all = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  return all.find((c) => c.name === container)?.resources?.limits?.[resource];
}

function image(pod: Pod, container: string, status: ContainerStatus): string {
  const all = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  return all.find((c) => c.name === container)?.image ?? status.image ?? '<unknown>';
}

/** Names of the ConfigMaps/Secrets a CreateContainerConfigError message refers to. */
function missingReference(message: string): string | undefined {
  const m =
    /(configmap|secret) "([^"]+)" not found/i.exec(message) ??
    /couldn't find key (\S+) in (ConfigMap|Secret) (\S+)/i.exec(message);
  if (!m) return undefined;
  return m[0];
}

/** The rollback tail of a fix (hedged when the caller gave no DaemonSet history). */
function rollback(ds: DaemonSetName): string {
  return rollbackAdvice(ds.rollback ?? { kind: 'unknown' }, ds.namespace, ds.name);
}

/**
 * A container under restartPolicy Always that ended with exit code 0: the kubelet restarts it
 * (and backs off as for a crash), so an agent that is meant to run for ever exits by mistake.
 */
function exitedSuccessfully(
  pod: Pod,
  ds: DaemonSetName,
  s: ContainerStatus,
  t: ContainerStateTerminated,
  looping: boolean,
): RawReason {
  return {
    code: 'CrashLoopBackOff',
    severity: 'error',
    message: `container ${s.name} exits successfully (${exitText(t)}) and restartPolicy Always restarts it${looping ? ', with a growing back-off' : ''} (${s.restartCount ?? 0} restarts): an agent is meant to keep running, not to exit`,
    evidence: [
      `container ${s.name}: ${looping ? `waiting: CrashLoopBackOff; last terminated: ${exitText(t)}` : `terminated: ${exitText(t)}`}${t.finishedAt ? ` at ${t.finishedAt}` : ''}`,
      `pod restartPolicy: ${pod.spec?.restartPolicy ?? 'Always'}`,
    ],
    fix: `make the container's command run in the foreground (not daemonize or exit after a one-off task): kubectl logs -n ${pod.metadata?.namespace} ${pod.metadata?.name} -c ${s.name} --previous shows its last run; fix the command/args${rollback(ds)}`,
  };
}

/**
 * A crash loop and its cause: CrashLoopBackOff is what kubectl get pods shows, OOMKilled the cause
 * when the kernel killed the container; both are reported.
 */
function crashReasons(pod: Pod, ds: DaemonSetName, s: ContainerStatus, kind: string, events: KubeEvent[]): RawReason[] {
  const waiting = s.state?.waiting;
  const lastTerm = s.lastState?.terminated;
  const term = s.state?.terminated;
  const looping = waiting?.reason === 'CrashLoopBackOff';
  const out: RawReason[] = [];
  if (looping) {
    const last = lastTerm ? `last exit: ${exitText(lastTerm)}` : 'no previous termination recorded';
    out.push({
      code: 'CrashLoopBackOff',
      severity: 'error',
      message: `${kind} ${s.name} keeps crashing (${s.restartCount ?? 0} restarts; ${last})`,
      evidence: [
        `${kind} ${s.name}: waiting: CrashLoopBackOff${waiting?.message ? `: ${waiting.message}` : ''}`,
        ...(lastTerm?.message ? [`last termination message: ${lastTerm.message.trim().split('\n')[0]}`] : []),
        ...latest(events, ['BackOff']).map(eventLine),
      ],
      fix:
        lastTerm?.reason === 'OOMKilled'
          ? 'the crashes are out-of-memory kills: see OOMKilled'
          : `read the crash: kubectl logs -n ${pod.metadata?.namespace} ${pod.metadata?.name} -c ${s.name} --previous; fix the config or image${rollback(ds)}`,
    });
  }
  const oom =
    (term?.reason === 'OOMKilled' ? term : undefined) ?? (lastTerm?.reason === 'OOMKilled' ? lastTerm : undefined);
  if (oom && (looping || term)) {
    const limit = containerLimit(pod, s.name, 'memory');
    out.push({
      code: 'OOMKilled',
      severity: 'error',
      message: `${kind} ${s.name} is killed for running out of memory (OOMKilled, exit code ${oom.exitCode ?? 137}, ${s.restartCount ?? 0} restarts)`,
      evidence: [
        `${kind} ${s.name}: last terminated: OOMKilled, exit code ${oom.exitCode ?? 137}${oom.finishedAt ? ` at ${oom.finishedAt}` : ''}`,
        `memory limit: ${limit ?? 'none set (the node ran out of memory)'}`,
      ],
      fix: limit
        ? `raise resources.limits.memory of ${kind} ${s.name} above ${limit} (and its request to match), or reduce the agent's buffers`
        : `set resources.requests.memory and limits.memory on ${kind} ${s.name} so it is not the node's first victim`,
    });
  }
  return out;
}

function containerReasons(
  pod: Pod,
  ds: DaemonSetName,
  s: ContainerStatus,
  init: boolean,
  events: KubeEvent[],
): RawReason[] {
  const kind = init ? 'init container' : 'container';
  const waiting = s.state?.waiting;
  const lastTerm = s.lastState?.terminated;
  const term = s.state?.terminated;
  const always = (pod.spec?.restartPolicy ?? 'Always') === 'Always';
  if (waiting && isImagePullWaiting(waiting.reason)) {
    const img = image(pod, s.name, s);
    const pullEvents = latest(events, ['Failed', 'BackOff', 'ErrImagePull']);
    const failure = pullFailure([waiting.message ?? '', ...pullEvents.map((e) => e.message ?? '')]);
    const ns = pod.metadata?.namespace ?? '';
    const ambiguous = [waiting.message ?? '', ...pullEvents.map((e) => e.message ?? '')].some((t) =>
      /does not exist|may require/.test(t),
    );
    const secrets = pullSecretNames(pod.spec);
    const registry = imageRegistry(img);
    const pullFix =
      failure === 'unauthorized'
        ? secrets.length
          ? `the registry ${registry} refuses the pull with the pod's imagePullSecrets (${secrets.join(', ')}): check that each Secret exists in namespace ${ns} (a missing one gives a FailedToRetrieveImagePullSecret event) and holds credentials for ${registry}`
          : `the registry ${registry} refuses an anonymous pull${ambiguous ? ' (it answers the same for a repository that does not exist: check the image name too)' : ''}, and the pod carries no imagePullSecrets (none in the template, and its ServiceAccount gives none, or admission would have copied them): create a docker-registry Secret for ${registry} in namespace ${ns} and list it in spec.template.spec.imagePullSecrets (or in the ServiceAccount's imagePullSecrets), unless the nodes hold credentials for that registry`
        : failure === 'rate-limited'
          ? `the registry ${registry} limits the rate of pulls (toomanyrequests): pull with credentials (imagePullSecrets) or from a mirror; the kubelet retries with a back-off, so the pods start once pulls are allowed again`
          : failure === 'not-found'
            ? `the registry ${registry} has no "${img}": fix the image or tag in the template${rollback(ds)}`
            : undefined;
    return [
      {
        code: 'ImagePullBackOff',
        severity: 'error',
        message: `${kind} ${s.name} cannot pull image "${img}" (${waiting.reason})`,
        evidence: [
          `${kind} ${s.name}: waiting: ${waiting.reason}${waiting.message ? `: ${waiting.message}` : ''}`,
          ...pullEvents.map(eventLine),
        ],
        fix:
          pullFix ??
          `check that "${img}" exists and that the node can pull it (registry reachable, imagePullSecrets); fix the image in the template${rollback(ds)}`,
      },
    ];
  }
  const looping = waiting?.reason === 'CrashLoopBackOff';
  if (!init && always && looping && lastTerm && exitedZero(lastTerm))
    return [exitedSuccessfully(pod, ds, s, lastTerm, true)];
  if (!init && always && term && exitedZero(term)) return [exitedSuccessfully(pod, ds, s, term, false)];
  const crash = crashReasons(pod, ds, s, kind, events);
  if (crash.length) return crash;
  if (waiting && isConfigErrorWaiting(waiting.reason)) {
    const ref = missingReference(waiting.message ?? '');
    return [
      {
        code: 'CreateContainerConfigError',
        severity: 'error',
        message: `${kind} ${s.name} cannot be created: ${waiting.message ?? waiting.reason}`,
        evidence: [
          `${kind} ${s.name}: waiting: ${waiting.reason}${waiting.message ? `: ${waiting.message}` : ''}`,
          ...latest(events, ['Failed']).map(eventLine),
        ],
        fix: ref
          ? `create the missing object in namespace ${pod.metadata?.namespace} (${ref}), or mark the reference optional: true`
          : `fix the container's configuration (env, volume mounts, securityContext) named in the message`,
      },
    ];
  }
  if (term && !init && always) {
    return [
      {
        code: 'CrashLoopBackOff',
        severity: 'error',
        message: `${kind} ${s.name} terminated (${exitText(term)}) and is being restarted`,
        evidence: [`${kind} ${s.name}: terminated: ${term.reason ?? ''} exit code ${term.exitCode ?? '?'}`],
        fix: `read the crash: kubectl logs -n ${pod.metadata?.namespace} ${pod.metadata?.name} -c ${s.name} --previous`,
      },
    ];
  }
  return [];
}

/**
 * Running containers, a pod not Ready, on a Ready node and not terminating: the readiness probe
 * fails when there is one; without one, the kubelet has not yet reported the started containers.
 */
function notReadyRunning(pod: Pod, notReady: string[], events: KubeEvent[], now: Date): RawReason {
  const containers = pod.spec?.containers ?? [];
  const probed = notReady.filter((n) => containers.find((c) => c.name === n)?.readinessProbe);
  const ns = pod.metadata?.namespace;
  const name = pod.metadata?.name;
  if (probed.length || (!notReady.length && containers.some((c) => c.readinessProbe))) {
    const probe = latest(events, ['Unhealthy']).filter((e) => /Readiness/i.test(e.message ?? ''));
    const which = probed.length ? probed : notReady;
    return {
      code: 'ReadinessProbeFailing',
      severity: 'error',
      message: `container(s) ${which.join(', ') || '?'} running but not ready: the readiness probe fails`,
      evidence: probe.length
        ? probe.map(eventLine)
        : [`containers running, Ready=False${which.length ? ` (${which.join(', ')})` : ''}`],
      fix: `check what the probe checks: kubectl describe pod -n ${ns} ${name}; kubectl logs -n ${ns} ${name}`,
    };
  }
  const started = pod.status?.startTime ?? pod.metadata?.creationTimestamp;
  const age = started ? formatDuration(now.getTime() - parseRfc3339(started)) : 'an unknown time';
  return {
    code: 'ContainerCreating',
    severity: 'warning',
    short: 'containers starting',
    message: `container(s) ${notReady.join(', ') || '?'} have no readiness probe and are running, but the kubelet has not reported the pod Ready yet (started ${age} ago): containers starting`,
    evidence: [
      `containers running, Ready=False${notReady.length ? ` (${notReady.join(', ')})` : ''}`,
      'no readinessProbe on those containers',
    ],
    fix: `wait; if it lasts, check the kubelet on node ${pod.spec?.nodeName}: kubectl describe pod -n ${ns} ${name}`,
  };
}

/**
 * Why a pod that is bound to a node is not Ready (or Ready but not yet available).
 * Returns an empty list for a Ready, available pod.
 */
/** The fix for a pod the kubelet refused under node pressure (k8s/eviction.ts, eviction_manager.go#Admit). */
function pressureFix(pod: Pod, nodeName: string, conditions: string[], stillThere: boolean): string {
  const what = conditions
    .map((c) =>
      c === 'DiskPressure'
        ? "free disk (the kubelet's image and container garbage collection, logs, emptyDir volumes)"
        : c === 'MemoryPressure'
          ? 'free memory'
          : c === 'PIDPressure'
            ? 'end runaway processes'
            : `clear ${c}`,
    )
    .join(' and ');
  const relieve = `${stillThere ? '' : '(the node no longer reports it: the next pod starts) '}${what} on node ${nodeName} (kubectl describe node ${nodeName}); the controller's next pod there starts once the pressure ends`;
  if (conditions.length === 1 && conditions[0] === 'MemoryPressure' && isBestEffort(pod))
    return `${relieve}; under MemoryPressure alone the kubelet refuses only BestEffort pods: give the containers resource requests`;
  return isCriticalPriority(pod)
    ? relieve
    : `${relieve}; the kubelet admits critical pods under pressure: priorityClassName: system-node-critical for an agent the node needs`;
}

export function boundPodReasons(
  pod: Pod,
  node: Node | undefined,
  ds: DaemonSetName,
  events: KubeEvent[],
  minReadySeconds: number,
  now: Date,
): Reason[] {
  const reasons: RawReason[] = [];
  const name = `${pod.metadata?.namespace}/${pod.metadata?.name}`;
  const del = pod.metadata?.deletionTimestamp;
  if (del) {
    const grace = pod.metadata?.deletionGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
    // deletionTimestamp is set to the time the grace period ends.
    const overdue = now.getTime() - parseRfc3339(del);
    const stuck = overdue > 0;
    reasons.push({
      code: 'PodTerminating',
      severity: stuck ? 'error' : 'warning',
      message: stuck
        ? `pod ${name} has been terminating for ${formatDuration(overdue + grace * 1000)}, past its ${grace}s grace period`
        : `pod ${name} is terminating (grace period ${grace}s)`,
      evidence: [
        `deletionTimestamp: ${del}`,
        `node ${pod.spec?.nodeName} Ready: ${nodeReadyStatus(node) || 'unknown'}`,
      ],
      fix: stuck
        ? nodeReadyStatus(node) === 'True'
          ? `check the kubelet on node ${pod.spec?.nodeName} and the pod's finalizers; as a last resort: kubectl delete pod -n ${pod.metadata?.namespace} ${pod.metadata?.name} --grace-period=0 --force`
          : ds.recreated
            ? // A pod force-deleted here comes back: the controller creates another, which cannot start either.
              `the node is not reporting, so the kubelet cannot confirm the deletion: recover the node, or (if it is gone for good) delete its Node object: kubectl delete node ${pod.spec?.nodeName} (its pods are garbage-collected; force-deleting this pod only moves the problem: no taint keeps the DaemonSet off the node, so the controller creates a new pod there, which cannot start either)`
            : `the node is not reporting, so the kubelet cannot confirm the deletion: recover the node, or (if it is gone for good) kubectl delete pod -n ${pod.metadata?.namespace} ${pod.metadata?.name} --grace-period=0 --force`
        : 'wait for the pod to exit; the controller creates a replacement afterwards',
    });
  }
  const phase = pod.status?.phase ?? '';
  if (phase === 'Failed' || phase === 'Succeeded') {
    const why = pod.status?.reason ? `${pod.status.reason}: ${pod.status.message ?? ''}`.trim() : phase;
    const outOf = /^OutOf/.test(pod.status?.reason ?? '');
    const eviction = kubeletEviction(pod.status?.reason, pod.status?.message);
    const nodeName = pod.spec?.nodeName ?? '';
    const pressure =
      eviction?.kind === 'refused'
        ? eviction.conditions.map((t) => node?.status?.conditions?.find((c) => c.type === t && c.status === 'True'))
        : [];
    const still = pressure.filter((c) => c !== undefined);
    reasons.push({
      code: 'PodFailed',
      severity: 'error',
      message:
        eviction?.kind === 'refused'
          ? `pod ${name} is Failed (Evicted): the kubelet on node ${nodeName} refused to start it because the node has ${eviction.conditions.join(', ')}; the DaemonSet tolerates the pressure taints, so the controller deletes it (after a back-off for Failed pods) and creates a new one there, refused again while the pressure lasts`
          : `pod ${name} is ${phase}${pod.status?.reason ? ` (${pod.status.reason})` : ''}; the controller deletes it (after a back-off for Failed pods) and creates a new one`,
      evidence: [`status: ${why}`, ...still.map((c) => `node condition ${pressureConditionText(c)}`)],
      fix: outOf
        ? `the kubelet rejected the pod for lack of ${pod.status!.reason!.slice('OutOf'.length)}: free room on node ${pod.spec?.nodeName} or lower the DaemonSet's requests`
        : eviction?.kind === 'refused'
          ? pressureFix(pod, nodeName, eviction.conditions, still.length > 0)
          : eviction?.kind === 'evicted'
            ? `the kubelet evicted the running pod when node ${nodeName} ran low on ${eviction.resources.join(', ')}: free ${eviction.resources.join(', ')} there; pods using more than they request go first, so set requests to what the pod uses${isCriticalPriority(pod) ? '' : ', and priorityClassName: system-node-critical'}`
            : pod.status?.reason === 'Evicted'
              ? `the node evicted the pod under resource pressure: set requests/limits and priorityClassName: system-node-critical`
              : `inspect the pod: kubectl describe pod -n ${pod.metadata?.namespace} ${pod.metadata?.name}`,
    });
    return reasons.map(withShort);
  }
  const ready = isPodReady(pod);
  const nodeReady = nodeReadyStatus(node);
  if (!ready && node && nodeReady !== 'True') {
    const cond = node.status?.conditions?.find((c) => c.type === 'Ready');
    reasons.push({
      code: 'NodeNotReady',
      severity: 'error',
      message: `node ${node.metadata?.name} is ${nodeReady === 'Unknown' ? 'unreachable (Ready=Unknown)' : 'NotReady'}, so the pod cannot become Ready`,
      evidence: [
        `node condition Ready=${nodeReady || 'missing'}${cond?.reason ? ` (${cond.reason})` : ''}${cond?.message ? `: ${cond.message}` : ''}`,
      ],
      fix: `fix the node first: kubectl describe node ${node.metadata?.name}; check the kubelet and container runtime there`,
    });
  }
  if (!ready) {
    const statuses: [ContainerStatus, boolean][] = [
      ...(pod.status?.initContainerStatuses ?? []).map((s): [ContainerStatus, boolean] => [s, true]),
      ...(pod.status?.containerStatuses ?? []).map((s): [ContainerStatus, boolean] => [s, false]),
    ];
    let found = false;
    for (const [s, init] of statuses) {
      const r = containerReasons(pod, ds, s, init, events);
      reasons.push(...r);
      if (r.length) found = true;
    }
    // On an unreachable node (Ready=Unknown) container states are stale: the node is the reason.
    const stale = Boolean(node) && nodeReady === 'Unknown';
    if (!found && !stale) {
      const creating =
        statuses.some(([s]) => isCreatingWaiting(s.state?.waiting?.reason)) ||
        (phase === 'Pending' && statuses.length === 0);
      const running = statuses.length > 0 && statuses.filter(([, init]) => !init).every(([s]) => s.state?.running);
      if (creating && !del) {
        reasons.push(creatingReason(pod, events, now, node));
      } else if (running && !del && (!node || nodeReady === 'True')) {
        reasons.push(
          notReadyRunning(
            pod,
            statuses.filter(([c, init]) => !init && !c.ready).map(([c]) => c.name),
            events,
            now,
          ),
        );
      } else if (!reasons.length) {
        reasons.push(creatingReason(pod, events, now, node));
      }
    }
    return reasons.map(withShort);
  }
  const wait = secondsUntilAvailable(pod, minReadySeconds, now);
  if (wait > 0) {
    reasons.push({
      code: 'NotAvailableYet',
      severity: 'info',
      message: `pod is Ready but not yet available: minReadySeconds is ${minReadySeconds}, ${wait}s to go`,
      evidence: [`Ready since ${pod.status?.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime}`],
      fix: 'nothing to do: it becomes available on its own',
    });
  }
  return reasons.map(withShort);
}
