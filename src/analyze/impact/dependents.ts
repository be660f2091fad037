/**
 * What depends on the pods beyond their nodes: Services that lose all (or their node-local)
 * endpoints, admission webhooks served only by them (fail closed or skipped, and whether they
 * block their own recovery), PodDisruptionBudgets that do not apply to a delete, and what the
 * priority class and namespace say about the stakes.
 */
import type { Service } from '../../model/k8s-types.js';
import { objectKey } from '../../model/snapshot-index.js';
import { compileLabelSelector, formatLabelSelector } from '../../k8s/labels.js';
import { ruleCoversCreate, webhookSelects, type Webhook } from '../../k8s/webhook.js';
import { isPodTerminal } from '../../k8s/podutil.js';
import { addFinding, addRisk, byName, missing, nameList, plural, type Analysis } from './analysis.js';

function endpointSliceEvidence(a: Analysis, svc: Service): string[] {
  const slices = a.index.snapshot.endpointSlices
    .filter(
      (s) =>
        s.metadata?.namespace === a.ns && s.metadata?.labels?.['kubernetes.io/service-name'] === svc.metadata?.name,
    )
    .sort(byName);
  return slices.map((s) => {
    const eps = s.endpoints ?? [];
    const ours = eps.filter(
      (e) => e.targetRef?.kind === 'Pod' && a.ownKeys.has(`${e.targetRef.namespace ?? a.ns}/${e.targetRef.name}`),
    ).length;
    return `EndpointSlice ${s.metadata?.name}: ${plural(eps.length, 'endpoint')}, ${ours} of them pods of this DaemonSet`;
  });
}

export function servicesSection(a: Analysis): void {
  if (missing(a, 'Service')) {
    a.notChecked.push('Services that would lose all their endpoints (no Service objects in the input)');
    return;
  }
  const nsPods = (a.index.podsByNamespace.get(a.ns) ?? []).filter(
    (p) => !isPodTerminal(p) && !p.metadata?.deletionTimestamp,
  );
  for (const svc of a.index.snapshot.services.filter((s) => s.metadata?.namespace === a.ns).sort(byName)) {
    const sel = svc.spec?.selector;
    if (!sel || !Object.keys(sel).length) continue;
    const selector = compileLabelSelector({ matchLabels: sel });
    if (!selector.ok) continue;
    const ours = a.live.filter((p) => selector.matches(p.metadata?.labels));
    if (!ours.length) continue;
    const remaining = nsPods.filter((p) => !a.ownKeys.has(objectKey(p)) && selector.matches(p.metadata?.labels));
    const key = objectKey(svc);
    const type = svc.spec?.type ?? 'ClusterIP';
    const headless = svc.spec?.clusterIP === 'None';
    const selText = formatLabelSelector({ matchLabels: sel });
    if (!remaining.length) {
      a.lostServices.add(key);
      const external = type === 'NodePort' || type === 'LoadBalancer';
      addFinding(
        a,
        'ServiceLosesAllEndpoints',
        external ? 'error' : 'warning',
        `Service ${key} (${headless ? 'headless' : type}) loses all its endpoints: its selector ${selText} matches only ${ours.length === 1 ? 'this pod' : `these ${ours.length} pods`}, so ${headless ? 'its DNS name resolves to nothing' : 'connections to it are refused'}`,
        endpointSliceEvidence(a, svc),
      );
      addRisk(a, external ? 'high' : 'medium', `Service ${key} loses all endpoints`);
      continue;
    }
    // With a Local traffic policy, a node only uses endpoints on itself.
    const local =
      svc.spec?.internalTrafficPolicy === 'Local'
        ? 'internalTrafficPolicy'
        : (type === 'NodePort' || type === 'LoadBalancer') && svc.spec?.externalTrafficPolicy === 'Local'
          ? 'externalTrafficPolicy'
          : undefined;
    if (!local) continue;
    const bare = a.nodes.filter((n) => !remaining.some((p) => p.spec?.nodeName === n));
    if (!bare.length) continue;
    addFinding(
      a,
      'ServiceLosesLocalEndpoints',
      'warning',
      `Service ${key} has ${local}: Local, so on ${plural(bare.length, 'node')} where only these pods served it, ${local === 'internalTrafficPolicy' ? 'traffic from pods on those nodes is dropped' : 'external traffic to those nodes is dropped'} (${plural(remaining.length, 'other endpoint')} elsewhere)`,
      [`nodes: ${nameList(bare, 10)}`],
    );
    addRisk(a, 'medium', `Service ${key} loses its local endpoints on ${plural(bare.length, 'node')}`);
  }
}

function ruleText(wh: Webhook): string {
  const rules = (wh.rules ?? []).map(
    (r) =>
      `${(r.operations ?? []).join(',')} ${(r.resources ?? []).join(',')}${(r.apiGroups ?? []).some((g) => g !== '') ? ` (${(r.apiGroups ?? []).map((g) => g || 'core').join(',')})` : ''}`,
  );
  return rules.length ? rules.join('; ') : '(no rules)';
}

/** The resources whose creation in the DaemonSet's namespace the webhook intercepts: pods, the DaemonSet itself. */
function blocksRecovery(a: Analysis, wh: Webhook): string[] {
  const nsObj = a.index.snapshot.namespaces.find((n) => n.metadata?.name === a.ns);
  const nsLabels = nsObj?.metadata?.labels ?? { 'kubernetes.io/metadata.name': a.ns };
  if (!webhookSelects(wh.namespaceSelector, nsLabels)) return [];
  const out: string[] = [];
  const podLabels = a.ds.spec?.template?.metadata?.labels;
  if ((wh.rules ?? []).some((r) => ruleCoversCreate(r, '', 'pods')) && webhookSelects(wh.objectSelector, podLabels))
    out.push('pods');
  if (
    (wh.rules ?? []).some((r) => ruleCoversCreate(r, 'apps', 'daemonsets')) &&
    webhookSelects(wh.objectSelector, a.ds.metadata?.labels)
  )
    out.push('daemonsets');
  return out;
}

export function webhooksSection(a: Analysis): void {
  const kinds = [
    {
      kind: 'ValidatingWebhookConfiguration' as const,
      list: a.index.snapshot.validatingWebhooks,
      resource: 'validatingwebhookconfiguration',
    },
    {
      kind: 'MutatingWebhookConfiguration' as const,
      list: a.index.snapshot.mutatingWebhooks,
      resource: 'mutatingwebhookconfiguration',
    },
  ];
  const absent = kinds.filter((k) => missing(a, k.kind)).map((k) => k.kind);
  if (absent.length)
    a.notChecked.push(`admission webhooks served by these pods (no ${absent.join(' or ')} objects in the input)`);
  for (const { kind, list, resource } of kinds) {
    for (const cfg of [...list].sort(byName)) {
      (cfg.webhooks ?? []).forEach((wh, i) => {
        const svc = wh.clientConfig?.service;
        const key = `${svc?.namespace ?? ''}/${svc?.name ?? ''}`;
        if (!svc || !a.lostServices.has(key)) return;
        const policy = wh.failurePolicy ?? 'Fail';
        const scope =
          wh.namespaceSelector &&
          (Object.keys(wh.namespaceSelector.matchLabels ?? {}).length || wh.namespaceSelector.matchExpressions?.length)
            ? `namespaces matching ${formatLabelSelector(wh.namespaceSelector)}`
            : 'every namespace';
        const evidence = [
          `${kind} ${cfg.metadata?.name}, webhook ${wh.name}: failurePolicy ${policy}${wh.failurePolicy ? '' : ' (the default)'}`,
          `intercepts: ${ruleText(wh)} in ${scope}${wh.objectSelector && formatLabelSelector(wh.objectSelector) !== '<all>' ? `, objects matching ${formatLabelSelector(wh.objectSelector)}` : ''}`,
          `calls Service ${key}${svc.path ? ` path ${svc.path}` : ''}, which loses all its endpoints`,
        ];
        if (policy === 'Fail') {
          a.failClosed.push({ kind: resource, config: cfg.metadata?.name ?? '', index: i, webhook: wh.name });
          addFinding(
            a,
            'WebhookFailClosed',
            'error',
            `admission webhook "${wh.name}" fails closed and only these pods serve it: every request it intercepts is rejected cluster-wide ("failed calling webhook \\"${wh.name}\\"") until a pod serves it again`,
            evidence,
          );
          addRisk(a, 'critical', `fail-closed admission webhook "${wh.name}" is served only by these pods`);
          const blocked = blocksRecovery(a, wh);
          if (blocked.length) {
            addFinding(
              a,
              'WebhookBlocksRecovery',
              'error',
              `"${wh.name}" also intercepts CREATE of ${blocked.join(' and ')} in namespace ${a.ns}: once these pods are gone, neither the DaemonSet controller nor a re-created DaemonSet can create the pods that would serve it again, a deadlock that only relaxing or removing the webhook breaks`,
              [`re-applying the DaemonSet fails in admission, or its pods fail with FailedCreate events`],
            );
          }
        } else {
          addFinding(
            a,
            'WebhookSkipped',
            'warning',
            `admission webhook "${wh.name}" fails open: while these pods are gone, requests it intercepts are admitted without it (${kind.startsWith('Validating') ? 'its policy is not enforced' : 'its mutations are not applied'})`,
            evidence,
          );
          addRisk(a, 'medium', `admission webhook "${wh.name}" is skipped while these pods are gone`);
        }
      });
    }
  }
}

export function budgetsSection(a: Analysis): void {
  if (missing(a, 'PodDisruptionBudget')) {
    a.notChecked.push(
      'PodDisruptionBudgets that select these pods, which would not protect them from deletion anyway (no PodDisruptionBudget objects in the input)',
    );
    return;
  }
  for (const pdb of a.index.snapshot.podDisruptionBudgets.filter((p) => p.metadata?.namespace === a.ns).sort(byName)) {
    const compiled = compileLabelSelector(pdb.spec?.selector);
    if (!compiled.ok) continue;
    const n = a.live.filter((p) => compiled.matches(p.metadata?.labels)).length;
    if (!n) continue;
    const budget =
      pdb.spec?.minAvailable !== undefined
        ? `minAvailable ${pdb.spec.minAvailable}`
        : `maxUnavailable ${pdb.spec?.maxUnavailable ?? '?'}`;
    addFinding(
      a,
      'PdbDoesNotApply',
      'info',
      `PodDisruptionBudget ${objectKey(pdb)} selects ${`${n} of these pods`} but does not protect them here: budgets only guard evictions (kubectl drain, the eviction API), and deleting a DaemonSet deletes its pods directly`,
      [`selector ${formatLabelSelector(pdb.spec?.selector)}, ${budget}`],
    );
  }
}

export function stakesSection(a: Analysis): void {
  const pc = a.ds.spec?.template?.spec?.priorityClassName;
  if (pc === 'system-node-critical' || pc === 'system-cluster-critical') {
    const value = a.index.snapshot.priorityClasses.find((p) => p.metadata?.name === pc)?.value;
    addRisk(
      a,
      'high',
      `priorityClassName ${pc}${value !== undefined ? ` (${value})` : ''}: marked as critical to ${pc === 'system-node-critical' ? 'every node it runs on' : 'the cluster'}`,
    );
  }
  if (a.ns === 'kube-system') addRisk(a, 'high', 'runs in kube-system, the namespace of cluster components');
}
