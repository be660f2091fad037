/**
 * Pod status as the kubelet of a generated cluster writes it: running, crash-looping, pulling,
 * on a lost node, unschedulable; conditions by test/kube's podCondition (without
 * observedGeneration: the kubelet of these dumps predates PodObservedGenerationTracking).
 */
import type { Container } from '../../src/model/k8s-types.js';
import { podCondition } from '../../test/kube/api-pod.js';
import { at } from '../../test/kube/time.js';
import type { NodeInfo } from './nodes.js';
import { type Gen, HEX, type Json, type Obj } from './random.js';

/** The state of a generated pod. */
export type PodState = 'running' | 'crashloop' | 'imagepull' | 'pending' | 'nodeDown';

const NOT_READY = 'containers with unready status: [main]';

/** The five conditions of a bound pod created `created` seconds ago, Ready or not. */
export function podConditions(created: number, ready: boolean): Json[] {
  const readySince = ready ? created - 5 : created - 20;
  const readiness = (type: string) =>
    podCondition(
      type,
      ready ? 'True' : 'False',
      readySince,
      ready ? undefined : 'ContainersNotReady',
      ready ? undefined : NOT_READY,
      null,
    );
  return [
    podCondition('PodReadyToStartContainers', 'True', created - 3, undefined, undefined, null),
    podCondition('Initialized', 'True', created - 2, undefined, undefined, null),
    readiness('Ready'),
    readiness('ContainersReady'),
    podCondition('PodScheduled', 'True', created, undefined, undefined, null),
  ] as unknown as Json[];
}

function containerStatus(c: Container, state: PodState, created: number, g: Gen): Obj {
  const { r } = g;
  const image = c.image ?? '';
  const base: Obj = {
    containerID: `containerd://${r.chars(HEX, 64)}`,
    image,
    imageID: `${image.split(':')[0]}@${r.digest()}`,
    name: c.name,
    started: state === 'running',
    volumeMounts: [],
  };
  if (state === 'crashloop') {
    return {
      ...base,
      lastState: {
        terminated: {
          containerID: `containerd://${r.chars(HEX, 64)}`,
          exitCode: 1,
          finishedAt: at(90),
          reason: 'Error',
          startedAt: at(95),
        },
      },
      ready: false,
      restartCount: 14 + r.int(40),
      started: false,
      state: {
        waiting: { message: `back-off 5m0s restarting failed container=${c.name}`, reason: 'CrashLoopBackOff' },
      },
    };
  }
  if (state === 'imagepull') {
    return {
      image,
      imageID: '',
      name: c.name,
      ready: false,
      restartCount: 0,
      started: false,
      state: { waiting: { message: `Back-off pulling image "${image}"`, reason: 'ImagePullBackOff' } },
      volumeMounts: [],
    };
  }
  if (state === 'nodeDown')
    return {
      ...base,
      ready: false,
      restartCount: r.int(3),
      started: true,
      state: { running: { startedAt: at(created - 10) } },
    };
  return {
    ...base,
    ready: true,
    restartCount: r.chance(0.1) ? 1 + r.int(3) : 0,
    state: { running: { startedAt: at(created - 4) } },
  };
}

/** The status of a pod created `created` seconds ago in `state` on `node` (none when pending). */
export function podStatus(
  containers: Container[],
  state: PodState,
  created: number,
  node: NodeInfo | undefined,
  podIP: string,
  g: Gen,
  qos: string,
): Obj {
  if (state === 'pending') {
    const message =
      '0/5000 nodes are available: 1 Insufficient cpu. preemption: 0/5000 nodes are available: 1 No preemption victims found for incoming pod.';
    return {
      conditions: [podCondition('PodScheduled', 'False', created, 'Unschedulable', message, null)] as unknown as Json[],
      phase: 'Pending',
      qosClass: qos,
    };
  }
  return {
    conditions: podConditions(created, state === 'running'),
    containerStatuses: containers.map((c) => containerStatus(c, state, created, g)),
    hostIP: node!.ip,
    hostIPs: [{ ip: node!.ip }],
    phase: state === 'imagepull' ? 'Pending' : 'Running',
    podIP,
    podIPs: [{ ip: podIP }],
    qosClass: qos,
    startTime: at(created - 1),
  };
}

/** The status of a Job's pod that completed on `node`. */
export function succeededStatus(containers: Container[], created: number, node: NodeInfo, g: Gen, qos: string): Obj {
  const { r } = g;
  return {
    conditions: podConditions(created, false),
    phase: 'Succeeded',
    hostIP: node.ip,
    podIP: '',
    qosClass: qos,
    startTime: at(created - 1),
    containerStatuses: containers.map((c) => ({
      containerID: `containerd://${r.chars(HEX, 64)}`,
      image: c.image ?? '',
      imageID: '',
      name: c.name,
      ready: false,
      restartCount: 0,
      started: false,
      state: {
        terminated: {
          containerID: `containerd://${r.chars(HEX, 64)}`,
          exitCode: 0,
          finishedAt: at(created - 120),
          reason: 'Completed',
          startedAt: at(created - 5),
        },
      },
    })),
  };
}
