/**
 * The fluent builders of unit tests, kept at this path for its many importers: the library is
 * test/kube/ (`node('n1').taint('k', 'v', 'NoSchedule').build()`, `daemonSet('d')`, `pod('p')`).
 */
export {
  NOW,
  ago,
  NodeBuilder,
  node,
  DaemonSetBuilder,
  daemonSet,
  PodBuilder,
  pod,
  event,
  snapshotOf,
  indexOf,
} from './kube/index.js';
