/**
 * The API server's validation of a DaemonSet, as `kubectl apply` meets it: kubernetes v1.35.4
 * pkg/apis/apps/validation/validation.go (`ValidateDaemonSet`, `ValidateDaemonSetSpec`,
 * `ValidateDaemonSetUpdateStrategy`, `ValidateRollingUpdateDaemonSet`, `ValidateDaemonSetUpdate`,
 * `ValidatePositiveIntOrPercent`, `IsNotMoreThan100Percent`), run on the object after
 * `SetDefaults_DaemonSet` (pkg/apis/apps/v1/defaults.go) and the pod template's defaults. The
 * errors and their texts are field-errors.ts's, the label and selector checks
 * label-validation.ts's, and the pod template's checks pod-validation.ts's.
 *
 * Of `ValidatePodTemplateSpec` only the checks of the fields ds-doctor reads are mirrored; of
 * `ValidateObjectMeta` only the name. Volumes, probes, resources, security contexts, affinity
 * terms, annotations and the DaemonSet's own labels are not checked here: the API server may
 * refuse a manifest for them that this accepts (departure, on purpose: ds-doctor does not read them).
 */
import type { DaemonSet, IntOrString, LabelSelector } from '../model/k8s-types.js';
import { defaultedPodTemplate } from './defaults.js';
import { isDNS1123Subdomain } from './names.js';
import {
  forbidden,
  goJson,
  invalid,
  notSupported,
  orderedSelector,
  regexError,
  required,
  sortedMap,
  type FieldError,
} from './field-errors.js';
import { selectorMatches, validateLabelSelector } from './label-validation.js';
import { str, validatePodTemplate, type Obj } from './pod-validation.js';

export { formatFieldError, invalidMessage, type FieldError, type FieldErrorType } from './field-errors.js';

/** The extensions/v1beta1 API (gone since v1.16) defaulted a missing selector to the template's labels and the strategy to OnDelete (kubernetes v1.15 pkg/apis/extensions/v1beta1/defaults.go). */
const LEGACY = 'extensions/v1beta1';
/** An IntOrString as the v1 JSON decoder reads it: a JSON number is an int, a JSON string a string. */
function intOrStringValue(v: IntOrString): { isString: boolean; int: number; str: string } {
  return typeof v === 'string' ? { isString: true, int: 0, str: v } : { isString: false, int: v, str: '' };
}

const PERCENT = /^[0-9]+%$/;
const PERCENT_MSG = regexError(
  "a valid percent string must be a numeric string followed by an ending '%'",
  '[0-9]+%',
  '1%',
  '93%',
);

/** validation.go#getPercentValue. */
function percentValue(v: IntOrString): number | undefined {
  const { isString, str } = intOrStringValue(v);
  if (!isString || !PERCENT.test(str)) return undefined;
  return Number.parseInt(str.slice(0, -1), 10);
}

/** validation.go#getIntOrPercentValue: a percentage's number, else `IntValue()` (a string that is no integer is 0). */
function intOrPercentValue(v: IntOrString): number {
  const pct = percentValue(v);
  if (pct !== undefined) return pct;
  if (typeof v === 'number') return v;
  return /^[+-]?\d+$/.test(v) ? Number.parseInt(v, 10) : 0;
}

/** validation.go#ValidatePositiveIntOrPercent. */
export function validatePositiveIntOrPercent(v: IntOrString, path: string): FieldError[] {
  if (typeof v === 'string') return PERCENT.test(v) ? [] : [invalid(path, v, PERCENT_MSG)];
  return v < 0 ? [invalid(path, v, 'must be greater than or equal to 0')] : [];
}

/** validation.go#IsNotMoreThan100Percent. */
export function isNotMoreThan100Percent(v: IntOrString, path: string): FieldError[] {
  const pct = percentValue(v);
  return pct === undefined || pct <= 100 ? [] : [invalid(path, v, 'must not be greater than 100%')];
}

/** validation.go#ValidateRollingUpdateDaemonSet, on the defaulted values. */
export function validateRollingUpdateDaemonSet(
  maxUnavailable: IntOrString,
  maxSurge: IntOrString,
  path: string,
): FieldError[] {
  const errs = [
    ...validatePositiveIntOrPercent(maxUnavailable, `${path}.maxUnavailable`),
    ...validatePositiveIntOrPercent(maxSurge, `${path}.maxSurge`),
    ...isNotMoreThan100Percent(maxUnavailable, `${path}.maxUnavailable`),
    ...isNotMoreThan100Percent(maxSurge, `${path}.maxSurge`),
  ];
  const hasUnavailable = intOrPercentValue(maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(maxSurge) !== 0;
  if (hasUnavailable && hasSurge)
    errs.push(invalid(`${path}.maxSurge`, maxSurge, 'may not be set when maxUnavailable is non-zero'));
  if (!hasUnavailable && !hasSurge) errs.push(required(`${path}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
  return errs;
}

/** The update strategy after `SetDefaults_DaemonSet` (extensions/v1beta1: OnDelete when no type is written). */
function defaultedStrategy(ds: DaemonSet): {
  type: string;
  rollingUpdate?: { maxUnavailable?: IntOrString; maxSurge?: IntOrString };
} {
  const written = ds.spec?.updateStrategy;
  const type = written?.type || (ds.apiVersion === LEGACY ? 'OnDelete' : 'RollingUpdate');
  const ru = written?.rollingUpdate ?? undefined;
  if (type !== 'RollingUpdate') return { type, ...(ru ? { rollingUpdate: ru } : {}) };
  return { type, rollingUpdate: { maxUnavailable: ru?.maxUnavailable ?? 1, maxSurge: ru?.maxSurge ?? 0 } };
}

/** validation.go#ValidateDaemonSetUpdateStrategy. */
function validateUpdateStrategy(ds: DaemonSet, path: string): FieldError[] {
  const s = defaultedStrategy(ds);
  if (s.type === 'OnDelete') return [];
  if (s.type === 'RollingUpdate')
    return validateRollingUpdateDaemonSet(
      s.rollingUpdate?.maxUnavailable ?? 1,
      s.rollingUpdate?.maxSurge ?? 0,
      `${path}.rollingUpdate`,
    );
  // The internal apps.DaemonSetUpdateStrategy has no JSON tags: its fields print capitalised; an absent IntOrString is the zero int.
  const ru = s.rollingUpdate
    ? { MaxUnavailable: s.rollingUpdate.maxUnavailable ?? 0, MaxSurge: s.rollingUpdate.maxSurge ?? 0 }
    : null;
  return [notSupported(path, { Type: s.type, RollingUpdate: ru }, ['RollingUpdate', 'OnDelete'])];
}

function effectiveSelector(ds: DaemonSet): LabelSelector | undefined {
  const labels = ds.spec?.template?.metadata?.labels;
  if (ds.spec?.selector) return ds.spec.selector;
  return ds.apiVersion === LEGACY && labels && Object.keys(labels).length ? { matchLabels: labels } : undefined;
}

/** validation.go#ValidateDaemonSetSpec on the defaulted spec. */
export function validateDaemonSetSpec(ds: DaemonSet): FieldError[] {
  const template = defaultedPodTemplate(ds.spec?.template);
  const labels = template.metadata?.labels ?? {};
  const selector = effectiveSelector(ds);
  const errs = validateLabelSelector(selector, 'spec.selector');
  if (selectorMatches(selector, labels) === false) {
    errs.push(
      invalid(
        'spec.template.metadata.labels',
        sortedMap(template.metadata?.labels) ?? null,
        '`selector` does not match template `labels`',
      ),
    );
  }
  if (selector && Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0) {
    errs.push(invalid('spec.selector', orderedSelector(selector), 'empty selector is invalid for daemonset'));
  }
  errs.push(...validatePodTemplate(template, 'spec.template'));
  const restart = str((template.spec as Obj | undefined)?.['restartPolicy']) || 'Always';
  if (restart !== 'Always') errs.push(notSupported('spec.template.spec.restartPolicy', restart, ['Always']));
  if ((template.spec as Obj | undefined)?.['activeDeadlineSeconds'] !== undefined) {
    errs.push(
      forbidden('spec.template.spec.activeDeadlineSeconds', 'activeDeadlineSeconds in DaemonSet is not Supported'),
    );
  }
  const minReady = ds.spec?.minReadySeconds ?? 0;
  if (minReady < 0) errs.push(invalid('spec.minReadySeconds', minReady, 'must be greater than or equal to 0'));
  errs.push(...validateUpdateStrategy(ds, 'spec.updateStrategy'));
  const limit = ds.spec?.revisionHistoryLimit;
  if (typeof limit === 'number' && limit < 0)
    errs.push(invalid('spec.revisionHistoryLimit', limit, 'must be greater than or equal to 0'));
  return errs;
}

/** validation.go#ValidateDaemonSet: the name (`ValidateObjectMeta` with `NameIsDNSSubdomain`), then the spec. */
export function validateDaemonSet(ds: DaemonSet): FieldError[] {
  const name = ds.metadata?.name ?? '';
  const errs: FieldError[] = [];
  if (!name && !ds.metadata?.generateName) errs.push(required('metadata.name', 'name or generateName is required'));
  else if (name)
    for (const m of isDNS1123Subdomain(name))
      errs.push(invalid('metadata.name', name, m.replace('253 characters', '253 bytes')));
  return [...errs, ...validateDaemonSetSpec(ds)];
}

/** Semantic equality of two selectors (`apiequality.Semantic.DeepEqual`: an empty and an absent list or map are equal). */
function sameSelector(a: LabelSelector | undefined, b: LabelSelector | undefined): boolean {
  if (!a || !b) return !a && !b;
  return goJson(orderedSelector(a)) === goJson(orderedSelector(b));
}

/**
 * validation.go#ValidateDaemonSetUpdate: `ValidateDaemonSetSpecUpdate` (the selector is immutable;
 * the template generation is the registry's to set, so never wrong from a client), then the spec.
 * An extensions/v1beta1 object let its selector change.
 */
export function validateDaemonSetUpdate(ds: DaemonSet, old: DaemonSet): FieldError[] {
  const errs: FieldError[] = [];
  const selector = effectiveSelector(ds);
  if (ds.apiVersion !== LEGACY && !sameSelector(selector, old.spec?.selector))
    errs.push(invalid('spec.selector', selector ? orderedSelector(selector) : null, 'field is immutable'));
  return [...errs, ...validateDaemonSetSpec(ds)];
}
