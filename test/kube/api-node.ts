/**
 * Nodes as the kubelet registers them (EC2 or bare metal), their conditions, lifecycle taints and pod IPs.
 */
import type { NodeCondition, Taint } from '../../src/model/k8s-types.js';
import { type Json, ordered } from './fields.js';
import { hex, sha, uid } from './ids.js';
import { at } from './time.js';
import type { BuiltNode } from './types.js';

/** What kubeletConditions needs: the last heartbeat, when the node joined, and its health. */
export interface KubeletState {
  heartbeatAgo: number;
  joinedAgo: number;
  ready?: boolean;
  readySinceAgo?: number;
  notReadyMessage?: string;
  memoryPressureSince?: number;
}

/** An instance type: its name and the node's capacity and allocatable. */
export interface InstanceType {
  instanceType: string;
  capacity: Record<string, string>;
  allocatable: Record<string, string>;
}

/** What makeNode builds a Node from. */
export interface NodeDef {
  name: string;
  ip: string;
  joinedAgo: number;
  conditions: NodeCondition[];
  type: InstanceType;
  podCIDR: string;
  region?: string;
  zone?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  unschedulable?: boolean;
  taints?: Taint[];
  images?: { names: string[]; sizeBytes: number }[];
  kernelVersion?: string;
  osImage?: string;
  /** The uid (default: derived from the name) and resourceVersion (default: '', for a Versions to assign). */
  uid?: string;
  resourceVersion?: string;
  /** The operating system of the os labels and nodeInfo (default: linux). */
  os?: string;
  /** With `region`: also the deprecated failure-domain.beta and beta instance-type labels (default: true; newer cloud providers no longer write them). */
  betaCloudLabels?: boolean;
  /** With `region`: the providerID (default: aws:///<zone>/ plus the instance id derived from the name). */
  providerID?: string;
  /** The Hostname address (default: the node's name). */
  hostname?: string;
  /** nodeInfo fields over the defaults (machine, boot and system ids, runtime and kube-proxy versions…). */
  nodeInfo?: Record<string, string>;
  /** status.runtimeHandlers and status.features, as a kubelet of 1.31+ posts them (default: true). */
  runtimeHandlers?: boolean;
}

/** Hands out a pod IP on a node for a pod key. */
export type IPAllocator = (nodeName: string, podKey: string) => string;

/** An EKS m5.xlarge: capacity and allocatable. */
export const M5_XLARGE = {
  instanceType: 'm5.xlarge',
  capacity: {
    cpu: '4',
    'ephemeral-storage': '101430960Ki',
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: '16114092Ki',
    pods: '110',
  },
  allocatable: {
    cpu: '3920m',
    'ephemeral-storage': '93478772582',
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: '15491072Ki',
    pods: '110',
  },
};

/** The EC2 instance id of a node. */
export function ec2InstanceId(nodeName: string): string {
  return `i-0${hex(`instance/${nodeName}`, 16)}`;
}

/** The address of a node's InternalIP. */
export function internalIP(node: BuiltNode): string {
  return node.status.addresses!.find((a) => a.type === 'InternalIP')!.address;
}

/** A node condition as the kubelet posts it. */
export function nodeCondition(
  type: string,
  status: string,
  reason: string,
  message: string | undefined,
  heartbeatAgo: number,
  sinceAgo: number,
): NodeCondition {
  return { type, status, lastHeartbeatTime: at(heartbeatAgo), lastTransitionTime: at(sinceAgo), reason, message };
}

/**
 * The four conditions a running kubelet posts: no pressure (or MemoryPressure since
 * `memoryPressureSince`), and Ready since `readySinceAgo` or, with `ready` false, NotReady
 * with `notReadyMessage` since it joined.
 */
export function kubeletConditions({
  heartbeatAgo: hb,
  joinedAgo,
  ready = true,
  readySinceAgo = joinedAgo - 40,
  notReadyMessage,
  memoryPressureSince,
}: KubeletState): NodeCondition[] {
  const joined = joinedAgo - 2;
  return [
    memoryPressureSince
      ? nodeCondition(
          'MemoryPressure',
          'True',
          'KubeletHasInsufficientMemory',
          'kubelet has insufficient memory available',
          hb,
          memoryPressureSince,
        )
      : nodeCondition(
          'MemoryPressure',
          'False',
          'KubeletHasSufficientMemory',
          'kubelet has sufficient memory available',
          hb,
          joined,
        ),
    nodeCondition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure', hb, joined),
    nodeCondition(
      'PIDPressure',
      'False',
      'KubeletHasSufficientPID',
      'kubelet has sufficient PID available',
      hb,
      joined,
    ),
    ready
      ? nodeCondition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status', hb, readySinceAgo)
      : nodeCondition('Ready', 'False', 'KubeletNotReady', notReadyMessage, hb, joined),
  ];
}

/** The NoSchedule and NoExecute taints the node lifecycle controller puts on a node whose Ready condition is `condition` ('not-ready', 'unreachable'). */
export function lifecycleTaints(condition: string, noScheduleAgo: number, noExecuteAgo: number): Taint[] {
  return [
    { key: `node.kubernetes.io/${condition}`, effect: 'NoSchedule', timeAdded: at(noScheduleAgo) },
    { key: `node.kubernetes.io/${condition}`, effect: 'NoExecute', timeAdded: at(noExecuteAgo) },
  ];
}

/**
 * A Node, kubelet v1.34.2 on Ubuntu with containerd. With `region` it is an EC2 instance
 * (topology and instance-type labels, providerID, InternalDNS address); without, bare metal.
 * `n`: name, ip, joinedAgo, conditions, type ({instanceType, capacity, allocatable}), podCIDR;
 * optional region, zone, labels, annotations, unschedulable, taints, images, kernelVersion, osImage,
 * and what a generator sets itself: uid, resourceVersion, os, betaCloudLabels,
 * providerID, hostname, nodeInfo fields, runtimeHandlers.
 */
export function makeNode(n: NodeDef): BuiltNode {
  const node: Json = buildNode(n);
  return node as BuiltNode;
}

export function buildNode(n: NodeDef): Json {
  const os = n.os ?? 'linux';
  const cloud = n.region
    ? {
        ...(n.betaCloudLabels === false
          ? {}
          : {
              'beta.kubernetes.io/instance-type': n.type.instanceType,
              'failure-domain.beta.kubernetes.io/region': n.region,
              'failure-domain.beta.kubernetes.io/zone': n.zone,
            }),
        'node.kubernetes.io/instance-type': n.type.instanceType,
        'topology.kubernetes.io/region': n.region,
        'topology.kubernetes.io/zone': n.zone,
      }
    : {};
  const hostname = { type: 'Hostname', address: n.hostname ?? n.name };
  const addresses = n.region
    ? [
        { type: 'InternalIP', address: n.ip },
        { type: 'InternalDNS', address: `ip-${n.ip.replaceAll('.', '-')}.ec2.internal` },
        hostname,
      ]
    : [{ type: 'InternalIP', address: n.ip }, hostname];
  return {
    kind: 'Node',
    apiVersion: 'v1',
    metadata: ordered(
      {
        name: n.name,
        uid: n.uid ?? uid(`Node/${n.name}`),
        resourceVersion: n.resourceVersion ?? '',
        creationTimestamp: at(n.joinedAgo),
        labels: {
          'beta.kubernetes.io/arch': 'amd64',
          'beta.kubernetes.io/os': os,
          'kubernetes.io/arch': 'amd64',
          'kubernetes.io/hostname': n.name,
          'kubernetes.io/os': os,
          ...cloud,
          ...n.labels,
        },
        annotations: {
          'node.alpha.kubernetes.io/ttl': '0',
          'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
          ...n.annotations,
        },
      },
      [],
    ),
    spec: ordered(
      {
        podCIDR: n.podCIDR,
        podCIDRs: [n.podCIDR],
        providerID: n.region ? (n.providerID ?? `aws:///${n.zone}/${ec2InstanceId(n.name)}`) : undefined,
        unschedulable: n.unschedulable,
        taints: n.taints?.length ? n.taints : undefined,
      },
      ['podCIDR', 'podCIDRs', 'providerID', 'unschedulable', 'taints'],
    ),
    status: ordered(
      {
        capacity: n.type.capacity,
        allocatable: n.type.allocatable,
        conditions: n.conditions,
        addresses,
        daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
        nodeInfo: {
          machineID: hex(`machine/${n.name}`, 32),
          systemUUID: uid(`system/${n.name}`).toUpperCase(),
          bootID: uid(`boot/${n.name}`),
          kernelVersion: n.kernelVersion ?? '6.8.0-1019-aws',
          osImage: n.osImage ?? 'Ubuntu 24.04.1 LTS',
          containerRuntimeVersion: 'containerd://2.1.4',
          kubeletVersion: 'v1.34.2',
          kubeProxyVersion: '',
          operatingSystem: os,
          architecture: 'amd64',
          ...n.nodeInfo,
        },
        images: n.images ?? [],
        runtimeHandlers:
          n.runtimeHandlers === false
            ? undefined
            : [
                { name: 'runc', features: { recursiveReadOnlyMounts: true, userNamespaces: true } },
                { name: '', features: { recursiveReadOnlyMounts: true, userNamespaces: true } },
              ],
        features: n.runtimeHandlers === false ? undefined : { supplementalGroupsPolicy: true },
      },
      [],
    ),
  };
}

/** The taint the node lifecycle controller puts on a cordoned node (TaintNodeUnschedulable), `ago` seconds before NOW. */
export function unschedulableTaint(ago: number): Taint {
  return { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: at(ago) };
}

/**
 * Hands out pod IPs from each node's 192.168.<podNet>.0/24 (`podNetOf(nodeName)`), in the
 * order asked, spread by a hash of the pod key. Returns `(nodeName, podKey) => ip`.
 */
export function podIPAllocator(podNetOf: (nodeName: string) => number): IPAllocator {
  const used = new Map<string, number>();
  return (nodeName: string, key: string) => {
    const n = used.get(nodeName) ?? 0;
    used.set(nodeName, n + 1);
    return `192.168.${podNetOf(nodeName)}.${3 + n * 7 + (parseInt(sha(key).slice(0, 2), 16) % 7)}`;
  };
}
