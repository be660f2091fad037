/**
 * Admission chain: `FailedCreate: Pod "…" is invalid` at a container, volume or mount the
 * DaemonSet's template does not have → something added it between the controller and
 * validation: a mutating admission webhook of the input whose rules match pod CREATE in the
 * namespace (mutating admission runs before validation: kubernetes v1.35.4
 * staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/mutating/dispatcher.go#Dispatch).
 * PodSecurity, quota and LimitRange refusals stay with the per-node reason (create-errors.ts).
 */
import type { DaemonSet, PodSpec } from '../../model/k8s-types.js';
import { isMissing } from '../../model/snapshot.js';
import { ruleCoversCreate, webhookSelects } from '../../k8s/webhook.js';
import { daemonSetContext } from '../placement/index.js';
import { type CauseContext, type CauseDraft, dsRef, nameList } from './context.js';

/** The parts of a refusal that name something the template lacks, in words. */
export function foreignFields(message: string, spec: PodSpec | undefined): string[] {
  const out: string[] = [];
  const volumes = new Set((spec?.volumes ?? []).map((v) => v.name));
  const lists: Record<string, number> = {
    containers: spec?.containers?.length ?? 0,
    initContainers: spec?.initContainers?.length ?? 0,
    volumes: volumes.size,
  };
  for (const m of message.matchAll(/volumeMounts\[\d+\]\.name: Not found: "([^"]+)"/g)) {
    if (!volumes.has(m[1]!)) out.push(`volume mount "${m[1]}" names a volume the template does not define`);
  }
  for (const m of message.matchAll(/spec\.(containers|initContainers|volumes)\[(\d+)\]/g)) {
    const n = Number(m[2]);
    if (n >= (lists[m[1]!] ?? 0)) out.push(`spec.${m[1]}[${n}] is beyond the template's ${lists[m[1]!]} ${m[1]}`);
  }
  const names = new Set([...(spec?.containers ?? []), ...(spec?.initContainers ?? [])].map((c) => c.name));
  for (const m of message.matchAll(/(?:container|containers)\s+"([^"]+)"/g)) {
    if (!names.has(m[1]!)) out.push(`container "${m[1]}" is not in the template`);
  }
  return [...new Set(out)];
}

export function admissionCauses(c: CauseContext, ds: DaemonSet): CauseDraft[] {
  const ctx = daemonSetContext(c.index, ds);
  const refusal = ctx.failedCreates.find(
    (e) => /is invalid/.test(e.message ?? '') && foreignFields(e.message ?? '', ds.spec?.template?.spec).length,
  );
  if (!refusal) return [];
  const message = refusal.message ?? '';
  const foreign = foreignFields(message, ds.spec?.template?.spec);
  const ns = ds.metadata?.namespace ?? '';
  const nsObj = c.index.snapshot.namespaces.find((n) => n.metadata?.name === ns);
  const nsLabels = { 'kubernetes.io/metadata.name': ns, ...(nsObj?.metadata?.labels ?? {}) };
  const podLabels = ds.spec?.template?.metadata?.labels;
  const matching: { config: string; webhook: string; nsKnown: boolean }[] = [];
  for (const cfg of c.index.snapshot.mutatingWebhooks) {
    for (const wh of cfg.webhooks ?? []) {
      if (!(wh.rules ?? []).some((r) => ruleCoversCreate(r, '', 'pods'))) continue;
      if (!webhookSelects(wh.objectSelector, podLabels)) continue;
      if (!webhookSelects(wh.namespaceSelector, nsLabels)) continue;
      matching.push({ config: cfg.metadata?.name ?? '', webhook: wh.name, nsKnown: Boolean(nsObj) });
    }
  }
  const head = `FailedCreate: the pod is invalid at what the template does not have (${foreign[0]})`;
  const evidence = [
    `event FailedCreate${refusal.count && refusal.count > 1 ? ` (x${refusal.count})` : ''}: ${message}`,
    ...foreign.map((f) => `the template: ${f}`),
  ];
  if (!matching.length) {
    if (isMissing(c.index.snapshot, 'MutatingWebhookConfiguration')) {
      return [
        {
          code: 'WebhookInjectedField',
          severity: 'error',
          chain: [head, 'something adds it on the way in: a mutating webhook (none in the input to name)'],
          nodes: [],
          cause: { kind: 'MutatingWebhookConfiguration', name: '(not in the input)' },
          affects: [dsRef(ds)],
          evidence,
          fix: 'the template is not what is wrong: list the mutating webhooks (kubectl get mutatingwebhookconfigurations) and find the one that injects it into pods of this namespace',
        },
      ];
    }
    return [];
  }
  const first = matching[0]!;
  return [
    {
      code: 'WebhookInjectedField',
      severity: 'error',
      chain: [
        head,
        `mutating webhook ${first.webhook} (${first.config}) matches pod CREATE in namespace ${ns}${matching.length > 1 ? ` (and ${matching.length - 1} more)` : ''}`,
      ],
      nodes: [],
      cause: { kind: 'MutatingWebhookConfiguration', name: first.config },
      affects: [dsRef(ds)],
      evidence: [
        ...evidence,
        `intercepting pod CREATE here: ${nameList(matching.map((m) => `${m.config}/${m.webhook}`))}${first.nsKnown ? '' : ` (namespace ${ns} is not in the input: its labels could not be checked)`}`,
      ],
      fix: `the template is not what is wrong: the webhook's patch adds it; fix the webhook (kubectl get mutatingwebhookconfiguration ${first.config} -o yaml), or exclude this DaemonSet's pods or namespace through its objectSelector or namespaceSelector; the controller retries on its own once creation succeeds`,
    },
  ];
}
