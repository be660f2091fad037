/**
 * The objects builders hand out: the API types of src/model/k8s-types.ts (every field optional,
 * since dumps are partial) with the fields a builder always sets made required, so code that
 * builds fixtures reads `pod.metadata.name`, not `pod.metadata!.name!`.
 */
import type {
  Container,
  DaemonSet,
  DaemonSetSpec,
  DaemonSetStatus,
  KubeObject,
  Node,
  ObjectMeta,
  Pod,
  PodSpec,
  PodStatus,
} from '../../src/model/k8s-types.js';

/** Metadata with a name and a uid. */
export type BuiltMeta = ObjectMeta & { name: string; uid: string };

/** A pod spec with its containers. */
export type BuiltPodSpec = PodSpec & { containers: Container[] };

/** A pod template with labels and a spec. */
export interface BuiltTemplate {
  metadata: ObjectMeta & { labels: Record<string, string> };
  spec: BuiltPodSpec;
}

export type BuiltObject = KubeObject & { kind: string; metadata: BuiltMeta };
export type BuiltPod = Pod & {
  kind: 'Pod';
  metadata: BuiltMeta & { namespace: string };
  spec: BuiltPodSpec;
  status: PodStatus;
};
export type BuiltNode = Node & {
  kind: 'Node';
  metadata: BuiltMeta & { labels: Record<string, string> };
  spec: NonNullable<Node['spec']>;
  status: NonNullable<Node['status']> & {
    allocatable: Record<string, string>;
    images?: { names: string[]; sizeBytes: number }[];
  };
};
export type BuiltDaemonSet = DaemonSet & {
  kind: 'DaemonSet';
  metadata: BuiltMeta & { namespace: string; generation: number };
  spec: DaemonSetSpec & { template: BuiltTemplate };
  status: DaemonSetStatus;
};
