/** core/v1 Events about objects. */
import type { KubeEvent } from '../../src/model/k8s-types.js';
import { ago } from './time.js';

/** A core/v1 Event about an object. */
export function event(
  kind: string,
  obj: { metadata?: { name?: string; namespace?: string; uid?: string } },
  reason: string,
  message: string,
  type = 'Warning',
  secondsAgo = 60,
): KubeEvent {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: `${obj.metadata?.name}.${reason.toLowerCase()}`,
      namespace: obj.metadata?.namespace ?? 'default',
    },
    involvedObject: { kind, name: obj.metadata?.name, namespace: obj.metadata?.namespace, uid: obj.metadata?.uid },
    reason,
    message,
    type,
    count: 1,
    firstTimestamp: ago(secondsAgo),
    lastTimestamp: ago(secondsAgo),
  };
}
