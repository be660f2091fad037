/**
 * The API server's validation of a DaemonSet, as `kubectl apply` meets it: kubernetes v1.35.4
 * pkg/apis/apps/validation/validation.go (`ValidateDaemonSet`, `ValidateDaemonSetSpec`,
 * `ValidateDaemonSetUpdateStrategy`, `ValidateRollingUpdateDaemonSet`, `ValidateDaemonSetUpdate`,
 * `ValidatePositiveIntOrPercent`, `IsNotMoreThan100Percent`), run on the object after
 * `SetDefaults_DaemonSet` (pkg/apis/apps/v1/defaults.go) and the pod template's defaults, with
 * the field paths and texts of k8s.io/apimachinery pkg/util/validation/field (`Error.Error`,
 * `ErrorList.ToAggregate`) and pkg/api/errors (`NewInvalid`).
 *
 * Of `ValidatePodTemplateSpec` (pkg/apis/core/validation/validation.go) only the checks of the
 * fields ds-doctor reads are mirrored: the template's labels, the node selector, the containers'
 * and init containers' names, images and ports (`validateContainerCommon`,
 * `validateContainerPorts`, `checkHostPortConflicts`, `validatePodHostNetworkDeps`), the restart
 * policy and the tolerations (`ValidateTolerations`); of `ValidateObjectMeta` only the name.
 * Volumes, probes, resources, security contexts, affinity terms, annotations and the DaemonSet's
 * own labels are not checked here: the API server may refuse a manifest for them that this
 * accepts (departure, on purpose: ds-doctor does not read them).
 */
import type { DaemonSet, IntOrString, LabelSelector, PodTemplateSpec } from '../model/k8s-types.js';
import { defaultedPodTemplate } from './defaults.js';
import { isDNS1123Label, isDNS1123Subdomain } from './names.js';

/** field.ErrorType as `ErrorType.String` prints it. */
export type FieldErrorType = 'Required value' | 'Invalid value' | 'Unsupported value' | 'Forbidden' | 'Duplicate value';

/** One field.Error: the path, the type, the offending value (JSON as the API server holds it), the detail. */
export interface FieldError {
  field: string;
  type: FieldErrorType;
  /** The bad value (an int or bool prints with %v, a string with %q, anything else as JSON); absent for Required and Forbidden, which print none. */
  value?: unknown;
  /** The text after the value; may be empty. */
  detail: string;
}

/** The extensions/v1beta1 API (gone since v1.16) defaulted a missing selector to the template's labels and the strategy to OnDelete (kubernetes v1.15 pkg/apis/extensions/v1beta1/defaults.go). */
const LEGACY = 'extensions/v1beta1';

/** Go's `%q` of a string, close enough for the API's texts: JSON string quoting. */
function quote(s: string): string {
  return JSON.stringify(s);
}

/**
 * `json.Marshal` of a value built in Go's field order (structs keep their field order; maps are
 * sorted where they are built, see `sortedMap`), with `<`, `>`, `&` escaped as Go's encoder does.
 */
function goJson(value: unknown): string {
  return (JSON.stringify(value ?? null) ?? 'null').replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

/** A Go map as json.Marshal writes it: keys sorted. */
function sortedMap(m: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!m) return undefined;
  return Object.fromEntries(
    Object.keys(m)
      .sort()
      .map((k) => [k, m[k]]),
  );
}

/** A metav1.LabelSelector in its field order (matchLabels, matchExpressions; key, operator, values), empty fields omitted. */
function orderedSelector(sel: LabelSelector): Record<string, unknown> {
  const exprs = (sel.matchExpressions ?? []).map((r) => ({ key: r.key, operator: r.operator, ...((r.values ?? []).length ? { values: r.values } : {}) }));
  return { ...(Object.keys(sel.matchLabels ?? {}).length ? { matchLabels: sortedMap(sel.matchLabels) } : {}), ...(exprs.length ? { matchExpressions: exprs } : {}) };
}

/** `field.Error.ErrorBody`: an int or bool with %v, a string with %q, anything else as JSON. */
function printValue(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return quote(value);
  return goJson(value);
}

/** `field.Error.Error()`: `<field>: <type>[: <value>][: <detail>]`. */
export function formatFieldError(e: FieldError): string {
  let s = e.type;
  if (e.type !== 'Required value' && e.type !== 'Forbidden') s += `: ${printValue(e.value)}`;
  if (e.detail) s += `: ${e.detail}`;
  return `${e.field}: ${s}`;
}

/**
 * `apierrors.NewInvalid(DaemonSet.apps, name, errs)`'s message, the one `kubectl apply` prints
 * after "The DaemonSet … is invalid": one error as is, several in brackets, a repeated text once
 * (`ErrorList.ToAggregate`).
 */
export function invalidMessage(name: string, errs: FieldError[]): string {
  const texts = [...new Set(errs.map(formatFieldError))];
  const body = texts.length === 1 ? texts[0]! : `[${texts.join(', ')}]`;
  return `DaemonSet.apps ${quote(name)} is invalid: ${body}`;
}

const required = (field: string, detail = ''): FieldError => ({ field, type: 'Required value', detail });
const invalid = (field: string, value: unknown, detail: string): FieldError => ({ field, type: 'Invalid value', value, detail });
const forbidden = (field: string, detail: string): FieldError => ({ field, type: 'Forbidden', detail });
const notSupported = (field: string, value: unknown, valid: string[]): FieldError => ({
  field,
  type: 'Unsupported value',
  value,
  detail: valid.length ? `supported values: ${valid.map(quote).join(', ')}` : '',
});

/** validation.RegexError. */
function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (!examples.length) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

const LABEL_KEY_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_KEY = new RegExp(`^${LABEL_KEY_FMT}$`);
const LABEL_KEY_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE = new RegExp(`^(${LABEL_KEY_FMT})?$`);
const bytes = (s: string): number => new TextEncoder().encode(s).length;

/** apimachinery pkg/api/validate/content/kube.go#IsLabelKey (IsQualifiedName). */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (!prefix) errs.push('prefix part must be non-empty');
    else errs.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m.replace('253 characters', '253 bytes')}`));
  } else {
    return [`a valid label key ${regexError(LABEL_KEY_MSG, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  if (!name) errs.push('name part must be non-empty');
  else if (bytes(name) > 63) errs.push('name part must be no more than 63 bytes');
  if (!LABEL_KEY.test(name)) errs.push(`name part ${regexError(LABEL_KEY_MSG, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

/** apimachinery pkg/api/validate/content/kube.go#IsLabelValue. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (bytes(value) > 63) errs.push('must be no more than 63 bytes');
  if (!LABEL_VALUE.test(value)) {
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        `(${LABEL_KEY_FMT})?`,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  }
  return errs;
}

/** meta/v1/validation#ValidateLabels (map order: by key). */
function validateLabels(labels: Record<string, unknown> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    for (const m of isQualifiedName(k)) errs.push(invalid(path, k, m));
    for (const m of isValidLabelValue(typeof v === 'string' ? v : String(v))) errs.push(invalid(path, v, m));
  }
  return errs;
}

/** meta/v1/validation#ValidateLabelSelector. */
function validateLabelSelector(sel: LabelSelector | undefined, path: string): FieldError[] {
  if (!sel) return [];
  const errs = validateLabels(sel.matchLabels, `${path}.matchLabels`);
  (sel.matchExpressions ?? []).forEach((r, i) => {
    const p = `${path}.matchExpressions[${i}]`;
    const values = r.values ?? [];
    if (r.operator === 'In' || r.operator === 'NotIn') {
      if (!values.length) errs.push(required(`${p}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (r.operator === 'Exists' || r.operator === 'DoesNotExist') {
      if (values.length) errs.push(forbidden(`${p}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    } else {
      errs.push(invalid(`${p}.operator`, r.operator ?? '', 'not a valid selector operator'));
    }
    for (const m of isQualifiedName(r.key ?? '')) errs.push(invalid(`${p}.key`, r.key ?? '', m));
    values.forEach((v, j) => {
      for (const m of isValidLabelValue(v)) errs.push(invalid(`${p}.values[${j}]`, v, m));
    });
  });
  return errs;
}

/** `metav1.LabelSelectorAsSelector(sel).Matches(labels)`, or undefined when the selector does not convert (no error is reported then). */
function selectorMatches(sel: LabelSelector | undefined, labels: Record<string, string>): boolean | undefined {
  if (!sel) return false; // labels.Nothing()
  for (const r of sel.matchExpressions ?? []) {
    const values = r.values ?? [];
    if ((r.operator === 'In' || r.operator === 'NotIn') && !values.length) return undefined;
    if ((r.operator === 'Exists' || r.operator === 'DoesNotExist') && values.length) return undefined;
    if (!['In', 'NotIn', 'Exists', 'DoesNotExist'].includes(r.operator)) return undefined;
    if (isQualifiedName(r.key ?? '').length || values.some((v) => isValidLabelValue(v).length)) return undefined;
  }
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) if (isQualifiedName(k).length || isValidLabelValue(v).length) return undefined;
  const has = (k: string): boolean => Object.hasOwn(labels, k);
  return (
    Object.entries(sel.matchLabels ?? {}).every(([k, v]) => has(k) && labels[k] === v) &&
    (sel.matchExpressions ?? []).every((r) => {
      const values = r.values ?? [];
      if (r.operator === 'In') return has(r.key) && values.includes(labels[r.key]!);
      if (r.operator === 'NotIn') return !has(r.key) || !values.includes(labels[r.key]!);
      if (r.operator === 'Exists') return has(r.key);
      return !has(r.key);
    })
  );
}

/** An IntOrString as the v1 JSON decoder reads it: a JSON number is an int, a JSON string a string. */
function intOrStringValue(v: IntOrString): { isString: boolean; int: number; str: string } {
  return typeof v === 'string' ? { isString: true, int: 0, str: v } : { isString: false, int: v, str: '' };
}

const PERCENT = /^[0-9]+%$/;
const PERCENT_MSG = regexError("a valid percent string must be a numeric string followed by an ending '%'", '[0-9]+%', '1%', '93%');

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
export function validateRollingUpdateDaemonSet(maxUnavailable: IntOrString, maxSurge: IntOrString, path: string): FieldError[] {
  const errs = [
    ...validatePositiveIntOrPercent(maxUnavailable, `${path}.maxUnavailable`),
    ...validatePositiveIntOrPercent(maxSurge, `${path}.maxSurge`),
    ...isNotMoreThan100Percent(maxUnavailable, `${path}.maxUnavailable`),
    ...isNotMoreThan100Percent(maxSurge, `${path}.maxSurge`),
  ];
  const hasUnavailable = intOrPercentValue(maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(maxSurge) !== 0;
  if (hasUnavailable && hasSurge) errs.push(invalid(`${path}.maxSurge`, maxSurge, 'may not be set when maxUnavailable is non-zero'));
  if (!hasUnavailable && !hasSurge) errs.push(required(`${path}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
  return errs;
}

/** The update strategy after `SetDefaults_DaemonSet` (extensions/v1beta1: OnDelete when no type is written). */
function defaultedStrategy(ds: DaemonSet): { type: string; rollingUpdate?: { maxUnavailable?: IntOrString; maxSurge?: IntOrString } } {
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
  if (s.type === 'RollingUpdate') return validateRollingUpdateDaemonSet(s.rollingUpdate?.maxUnavailable ?? 1, s.rollingUpdate?.maxSurge ?? 0, `${path}.rollingUpdate`);
  // The internal apps.DaemonSetUpdateStrategy has no JSON tags: its fields print capitalised; an absent IntOrString is the zero int.
  const ru = s.rollingUpdate ? { MaxUnavailable: s.rollingUpdate.maxUnavailable ?? 0, MaxSurge: s.rollingUpdate.maxSurge ?? 0 } : null;
  return [notSupported(path, { Type: s.type, RollingUpdate: ru }, ['RollingUpdate', 'OnDelete'])];
}

type Obj = Record<string, unknown>;
const objs = (v: unknown): Obj[] => (Array.isArray(v) ? v.map((x) => (x && typeof x === 'object' ? (x as Obj) : {})) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** core/validation#validateContainerPorts. */
function validatePorts(ports: Obj[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const at = `${path}[${i}]`;
    const name = str(p['name']);
    if (name) {
      const msgs = isValidPortName(name);
      if (msgs.length) for (const m of msgs) errs.push(invalid(`${at}.name`, name, m));
      else if (names.has(name)) errs.push({ field: `${at}.name`, type: 'Duplicate value', value: name, detail: '' });
      else names.add(name);
    }
    const cp = num(p['containerPort']);
    if (cp === 0) errs.push(required(`${at}.containerPort`));
    else if (cp < 1 || cp > 65535) errs.push(invalid(`${at}.containerPort`, cp, 'must be between 1 and 65535, inclusive'));
    const hp = num(p['hostPort']);
    if (hp !== 0 && (hp < 1 || hp > 65535)) errs.push(invalid(`${at}.hostPort`, hp, 'must be between 1 and 65535, inclusive'));
    // SetDefaults_ContainerPort writes TCP over an empty protocol.
    const protocol = str(p['protocol']) || 'TCP';
    if (!protocol) errs.push(required(`${at}.protocol`));
    else if (!['SCTP', 'TCP', 'UDP'].includes(protocol)) errs.push(notSupported(`${at}.protocol`, protocol, ['SCTP', 'TCP', 'UDP']));
  });
  return errs;
}

/** apimachinery validation.go#IsValidPortName. */
function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push('must be no more than 15 bytes');
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.startsWith('-') || port.endsWith('-')) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** core/validation#validateContainerCommon for name, image and ports. */
function validateContainerCommon(c: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(c['name']);
  if (!name) errs.push(required(`${path}.name`));
  else for (const m of isDNS1123Label(name)) errs.push(invalid(`${path}.name`, name, m.replace('63 characters', '63 bytes')));
  if (!str(c['image'])) errs.push(required(`${path}.image`));
  errs.push(...validatePorts(objs(c['ports']), `${path}.ports`));
  return errs;
}

/** core/validation#AccumulateUniqueHostPorts over one list of containers. */
function hostPortConflicts(containers: Obj[], path: string, seen: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  containers.forEach((c, ci) => {
    objs(c['ports']).forEach((p, pi) => {
      const hp = num(p['hostPort']);
      if (hp === 0) return;
      const key = `${str(p['protocol']) || 'TCP'}/${str(p['hostIP'])}/${hp}`;
      if (seen.has(key)) errs.push({ field: `${path}[${ci}].ports[${pi}].hostPort`, type: 'Duplicate value', value: key, detail: '' });
      else seen.add(key);
    });
  });
  return errs;
}

/** core/validation#ValidateTolerations. */
function validateTolerations(tolerations: Obj[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  tolerations.forEach((t, i) => {
    const at = `${path}[${i}]`;
    const key = str(t['key']);
    const operator = str(t['operator']);
    const value = str(t['value']);
    const effect = str(t['effect']);
    if (key) for (const m of isQualifiedName(key)) errs.push(invalid(`${at}.key`, key, m));
    if (!key && operator !== 'Exists') errs.push(invalid(`${at}.operator`, operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    if (t['tolerationSeconds'] !== undefined && t['tolerationSeconds'] !== null && effect !== 'NoExecute') {
      errs.push(invalid(`${at}.effect`, effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (operator === 'Equal' || operator === '') {
      const msgs = isValidLabelValue(value);
      if (msgs.length) errs.push(invalid(`${at}.operator`, value, msgs.join(';')));
    } else if (operator === 'Exists') {
      if (value) errs.push(invalid(`${at}.operator`, value, "value must be empty when `operator` is 'Exists'"));
    } else {
      // Lt and Gt need the TaintTolerationComparisonOperators gate, off by default in v1.35.
      errs.push(notSupported(`${at}.operator`, operator, operator === 'Lt' || operator === 'Gt' ? ['Equal', 'Exists', 'Lt', 'Gt'] : ['Equal', 'Exists']));
    }
    if (effect && !['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(effect)) {
      errs.push(notSupported(`${at}.effect`, effect, ['NoSchedule', 'PreferNoSchedule', 'NoExecute']));
    }
  });
  return errs;
}

/** The parts of core/validation#ValidatePodTemplateSpec that ds-doctor reads (see the file's comment). */
function validatePodTemplate(template: PodTemplateSpec, path: string): FieldError[] {
  const errs = validateLabels(template.metadata?.labels, `${path}.labels`);
  const spec = (template.spec ?? {}) as Obj;
  const sp = `${path}.spec`;
  const containers = objs(spec['containers']);
  const inits = objs(spec['initContainers']);
  if (!containers.length) errs.push(required(`${sp}.containers`));
  const names = new Set<string>();
  containers.forEach((c, i) => {
    errs.push(...validateContainerCommon(c, `${sp}.containers[${i}]`));
    const name = str(c['name']);
    if (names.has(name)) errs.push({ field: `${sp}.containers[${i}].name`, type: 'Duplicate value', value: name, detail: '' });
    else names.add(name);
  });
  if (containers.length) errs.push(...hostPortConflicts(containers, `${sp}.containers`, new Set()));
  const initNames = new Set<string>();
  inits.forEach((c, i) => {
    const at = `${sp}.initContainers[${i}]`;
    errs.push(...validateContainerCommon(c, at));
    const name = str(c['name']);
    if (initNames.has(name) || names.has(name)) errs.push({ field: `${at}.name`, type: 'Duplicate value', value: name, detail: '' });
    else initNames.add(name);
  });
  const seen = new Set<string>();
  if (inits.length) errs.push(...hostPortConflicts(inits, `${sp}.initContainers`, seen));
  if (spec['hostNetwork'] === true) {
    containers.forEach((c, ci) => {
      objs(c['ports']).forEach((p, pi) => {
        const hp = num(p['hostPort']);
        if (hp !== 0 && hp !== num(p['containerPort'])) errs.push(invalid(`${sp}.containers[${ci}].ports[${pi}].hostPort`, hp, 'must match `containerPort` when `hostNetwork` is true'));
      });
    });
  }
  // SetDefaults_PodSpec writes Always over an empty restart policy.
  const restart = str(spec['restartPolicy']) || 'Always';
  if (!['Always', 'OnFailure', 'Never'].includes(restart)) errs.push(notSupported(`${sp}.restartPolicy`, restart, ['Always', 'OnFailure', 'Never']));
  errs.push(...validateLabels(spec['nodeSelector'] as Record<string, unknown> | undefined, `${sp}.nodeSelector`));
  const deadline = spec['activeDeadlineSeconds'];
  if (typeof deadline === 'number' && (deadline < 1 || deadline > 2147483647)) errs.push(invalid(`${sp}.activeDeadlineSeconds`, deadline, 'must be between 1 and 2147483647, inclusive'));
  const tolerations = objs(spec['tolerations']);
  if (tolerations.length) errs.push(...validateTolerations(tolerations, `${sp}.tolerations`));
  return errs;
}

/** The selector the API server stores: the written one, or (extensions/v1beta1) the template's labels. */
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
    errs.push(invalid('spec.template.metadata.labels', sortedMap(template.metadata?.labels) ?? null, '`selector` does not match template `labels`'));
  }
  if (selector && Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0) {
    errs.push(invalid('spec.selector', orderedSelector(selector), 'empty selector is invalid for daemonset'));
  }
  errs.push(...validatePodTemplate(template, 'spec.template'));
  const restart = str((template.spec as Obj | undefined)?.['restartPolicy']) || 'Always';
  if (restart !== 'Always') errs.push(notSupported('spec.template.spec.restartPolicy', restart, ['Always']));
  if ((template.spec as Obj | undefined)?.['activeDeadlineSeconds'] !== undefined) {
    errs.push(forbidden('spec.template.spec.activeDeadlineSeconds', 'activeDeadlineSeconds in DaemonSet is not Supported'));
  }
  const minReady = ds.spec?.minReadySeconds ?? 0;
  if (minReady < 0) errs.push(invalid('spec.minReadySeconds', minReady, 'must be greater than or equal to 0'));
  errs.push(...validateUpdateStrategy(ds, 'spec.updateStrategy'));
  const limit = ds.spec?.revisionHistoryLimit;
  if (typeof limit === 'number' && limit < 0) errs.push(invalid('spec.revisionHistoryLimit', limit, 'must be greater than or equal to 0'));
  return errs;
}

/** validation.go#ValidateDaemonSet: the name (`ValidateObjectMeta` with `NameIsDNSSubdomain`), then the spec. */
export function validateDaemonSet(ds: DaemonSet): FieldError[] {
  const name = ds.metadata?.name ?? '';
  const errs: FieldError[] = [];
  if (!name && !ds.metadata?.generateName) errs.push(required('metadata.name', 'name or generateName is required'));
  else if (name) for (const m of isDNS1123Subdomain(name)) errs.push(invalid('metadata.name', name, m.replace('253 characters', '253 bytes')));
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
  if (ds.apiVersion !== LEGACY && !sameSelector(selector, old.spec?.selector)) errs.push(invalid('spec.selector', selector ? orderedSelector(selector) : null, 'field is immutable'));
  return [...errs, ...validateDaemonSetSpec(ds)];
}
