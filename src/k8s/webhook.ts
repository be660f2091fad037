/**
 * Which admission webhooks intercept a request: the rule match of
 * `staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/rules/rules.go#Matcher.Matches`
 * (operation, API group, resource, scope; a star matches all, and star-slash-star every resource and subresource)
 * and the namespace and object selectors of
 * `staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/{namespace,object}/matcher.go`
 * (an absent selector matches everything; a Namespace carries `kubernetes.io/metadata.name`).
 */
import type { LabelSelector, WebhookConfiguration } from '../model/k8s-types.js';
import { compileLabelSelector } from './labels.js';

export type Webhook = NonNullable<WebhookConfiguration['webhooks']>[number];
export type WebhookRule = NonNullable<Webhook['rules']>[number];

/** The rule covers CREATE of `resource` in API group `group` ("" is core) in a namespace. */
export function ruleCoversCreate(rule: WebhookRule, group: string, resource: string): boolean {
  const has = (list: string[] | undefined, v: string) => (list ?? []).some((x) => x === '*' || x === v);
  return (
    has(rule.operations, 'CREATE') &&
    has(rule.apiGroups, group) &&
    (rule.resources ?? []).some((r) => r === '*' || r === '*/*' || r === resource) &&
    (rule.scope === undefined || rule.scope === '*' || rule.scope === 'Namespaced')
  );
}

/** A webhook's label selector against an object's labels; an absent selector selects everything. */
export function webhookSelects(
  selector: LabelSelector | undefined,
  labels: Record<string, string> | undefined,
): boolean {
  const compiled = compileLabelSelector(selector ?? {});
  return compiled.ok && compiled.matches(labels);
}
