/**
 * Services and the EndpointSlices the endpointslice controller keeps for them.
 */
import { controllerRef } from './api-pod.js';
import type { Json } from './fields.js';
import { fnv32a, suffix as shaSuffix, uid as shaUid } from './ids.js';
import { at } from './time.js';
import type { BuiltPod } from './types.js';

/** A port of a Service. */
export interface ServicePort {
  name: string;
  port: number;
  targetPort?: number | string;
  protocol: string;
}

/** What makeService builds a Service from. */
export interface ServiceDef {
  selector?: Record<string, string>;
  /** ClusterIP (default), NodePort or LoadBalancer: the last two get a nodePort per port. */
  type?: string;
  /** Default: 10.96.x.y derived from the name and namespace. */
  clusterIP?: string;
  ports?: ServicePort[];
  /** More spec fields (externalTrafficPolicy…). */
  extra?: Json;
  createdAgo?: number;
  /** Default: derived from namespace and name. */
  uid?: string;
}

/** A Service `ns`/`name`: one http port 80 → 8080 unless `ports` says otherwise. */
export function makeService(
  ns: string,
  name: string,
  {
    selector,
    type = 'ClusterIP',
    clusterIP,
    ports = [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }],
    extra = {},
    createdAgo = 30 * 86400,
    uid,
  }: ServiceDef = {},
): Json {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: ns, uid: uid ?? shaUid(`Service/${ns}/${name}`), creationTimestamp: at(createdAgo) },
    spec: {
      ...(selector ? { selector } : {}),
      type,
      clusterIP: clusterIP ?? `10.96.${fnv32a(name) % 250}.${fnv32a(ns) % 250}`,
      ports: ports.map((p) =>
        type === 'ClusterIP' ? p : { ...p, nodePort: 30000 + (fnv32a(`${ns}/${name}/${p.port}`) % 2767) },
      ),
      ...extra,
    },
  };
}

/**
 * The EndpointSlice of Service `svc` with `pods` as ready endpoints on `port` (its target port);
 * `id` derives the name's suffix and the uid (default: test/kube's sha scheme).
 */
export function makeEndpointSlice(
  svc: Json,
  pods: BuiltPod[],
  port: ServicePort,
  id: { suffix?: (key: string) => string; uid?: (name: string) => string } = {},
): Json {
  const { name: svcName, namespace } = svc.metadata;
  const name = `${svcName}-${(id.suffix ?? shaSuffix)(`eps/${svcName}`)}`;
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    addressType: 'IPv4',
    metadata: {
      name,
      namespace,
      uid: id.uid ? id.uid(name) : shaUid(`EndpointSlice/${namespace}/${name}`),
      labels: {
        'kubernetes.io/service-name': svcName,
        'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
      },
      ownerReferences: controllerRef('Service', svcName, svc.metadata.uid, 'v1'),
    },
    endpoints: pods.map((p) => ({
      addresses: [p.status.podIP],
      conditions: { ready: true, serving: true, terminating: false },
      nodeName: p.spec.nodeName,
      targetRef: { kind: 'Pod', name: p.metadata.name, namespace: p.metadata.namespace, uid: p.metadata.uid },
    })),
    ports: [{ name: port.name, port: port.targetPort ?? port.port, protocol: 'TCP' }],
  };
}
