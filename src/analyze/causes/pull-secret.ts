/**
 * Pull secret not carried: a DaemonSet whose pods cannot pull their image because the registry
 * refuses an anonymous pull, the pods carry no imagePullSecrets (neither the template nor the
 * ServiceAccount gives one: plugin/pkg/admission/serviceaccount/admission.go copies the account's
 * into a pod that sets none), and another DaemonSet of the same namespace pulls from the same
 * registry with imagePullSecrets: those Secrets are the ones to list (k8s/image-pull.ts).
 */
import type { DaemonSet } from '../../model/k8s-types.js';
import { imageRegistry, pullFailure, pullSecretNames } from '../../k8s/image-pull.js';
import { isImagePullWaiting } from '../../k8s/podhealth.js';
import { templateImages } from '../template-diff.js';
import type { NodeVerdict } from '../placement/index.js';
import { type CauseContext, type CauseDraft, dsObject, dsRef } from './context.js';

export function pullSecretCauses(c: CauseContext, ds: DaemonSet, rows: NodeVerdict[]): CauseDraft[] {
  const nodes = new Set(rows.filter((r) => r.reasons.some((x) => x.code === 'ImagePullBackOff')).map((r) => r.node));
  if (!nodes.size) return [];
  const refused = new Map<string, string[]>(); // registry → nodes
  let evidence: string | undefined;
  for (const pod of c.index.podsControlledBy('DaemonSet', ds)) {
    const nodeName = pod.spec?.nodeName ?? '';
    if (!nodes.has(nodeName) || pullSecretNames(pod.spec).length) continue;
    const events = c.index.eventsFor('Pod', pod).map((e) => e.message ?? '');
    for (const s of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]) {
      const waiting = s.state?.waiting;
      if (!waiting || !isImagePullWaiting(waiting.reason)) continue;
      const texts = [waiting.message ?? '', ...events];
      if (pullFailure(texts) !== 'unauthorized') continue;
      const spec = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].find(
        (x) => x.name === s.name,
      );
      const registry = imageRegistry(spec?.image ?? s.image ?? '');
      const list = refused.get(registry) ?? [];
      if (!list.includes(nodeName)) list.push(nodeName);
      refused.set(registry, list);
      evidence ??= texts.find((t) => pullFailure([t]) === 'unauthorized');
    }
  }
  const out: CauseDraft[] = [];
  const ns = ds.metadata?.namespace;
  for (const [registry, onNodes] of refused) {
    const sibling = c.index.snapshot.daemonSets.find(
      (d) =>
        d !== ds &&
        d.metadata?.namespace === ns &&
        pullSecretNames(d.spec?.template?.spec).length > 0 &&
        templateImages(d.spec?.template).some((i) => imageRegistry(i) === registry),
    );
    if (!sibling) continue;
    const secrets = pullSecretNames(sibling.spec?.template?.spec);
    const patch = JSON.stringify({
      spec: { template: { spec: { imagePullSecrets: secrets.map((name) => ({ name })) } } },
    });
    out.push({
      code: 'PullSecretNotCarried',
      severity: 'error',
      chain: [
        `${registry} refuses ${ds.metadata?.name}'s anonymous pulls`,
        `its pods carry no imagePullSecrets`,
        `${sibling.metadata?.name} pulls from ${registry} with ${secrets.join(', ')}`,
      ],
      nodes: onNodes.sort(),
      cause: dsObject(ds),
      affects: [dsRef(ds)],
      evidence: [
        ...(evidence ? [evidence] : []),
        `${ns}/${sibling.metadata?.name}: spec.template.spec.imagePullSecrets: ${secrets.join(', ')}`,
      ],
      fix: `give ${ds.metadata?.name} the same pull secret: kubectl patch daemonset ${ds.metadata?.name} -n ${ns} --type merge -p '${patch}'`,
    });
  }
  return out;
}
