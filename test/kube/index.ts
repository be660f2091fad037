/**
 * The typed builder library for test objects and generated fixtures: small composable builders
 * with sensible defaults, each producing plain API JSON typed by src/model/k8s-types.ts.
 * Unit tests use the fluent builders (`node`, `daemonSet`, `pod`, `event`, `indexOf`); the
 * fixture generators under scripts/ use the same time and identity helpers.
 */
export * from './time.js';
export * from './node.js';
export * from './daemonset.js';
export * from './pod.js';
export * from './events.js';
export * from './snapshot.js';
export * from './ids.js';
export type * from './types.js';
export * from './manifests.js';
export * from './fields.js';
export * from './versions.js';
export * from './semantics.js';
export * from './images.js';
export * from './api-meta.js';
export * from './api-node.js';
export * from './api-pod.js';
export * from './api-daemonset.js';
export * from './api-events.js';
export * from './api-cluster.js';
export * from './api-service.js';
