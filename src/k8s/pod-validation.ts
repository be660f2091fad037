/**
 * Of `ValidatePodTemplateSpec` (kubernetes v1.35.4 pkg/apis/core/validation/validation.go) the
 * checks of the fields ds-doctor reads: the template's labels, the node selector, the containers'
 * and init containers' names, images and ports (`validateContainerCommon`,
 * `validateContainerPorts`, `checkHostPortConflicts`, `validatePodHostNetworkDeps`), the restart
 * policy, activeDeadlineSeconds and the tolerations (`ValidateTolerations`).
 */
import type { PodTemplateSpec } from '../model/k8s-types.js';
import { invalid, notSupported, required, type FieldError } from './field-errors.js';
import { isQualifiedName, isValidLabelValue, validateLabels } from './label-validation.js';
import { isDNS1123Label } from './names.js';

export type Obj = Record<string, unknown>;
const objs = (v: unknown): Obj[] =>
  Array.isArray(v) ? v.map((x) => (x && typeof x === 'object' ? (x as Obj) : {})) : [];
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
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
    else if (cp < 1 || cp > 65535)
      errs.push(invalid(`${at}.containerPort`, cp, 'must be between 1 and 65535, inclusive'));
    const hp = num(p['hostPort']);
    if (hp !== 0 && (hp < 1 || hp > 65535))
      errs.push(invalid(`${at}.hostPort`, hp, 'must be between 1 and 65535, inclusive'));
    // SetDefaults_ContainerPort writes TCP over an empty protocol.
    const protocol = str(p['protocol']) || 'TCP';
    if (!protocol) errs.push(required(`${at}.protocol`));
    else if (!['SCTP', 'TCP', 'UDP'].includes(protocol))
      errs.push(notSupported(`${at}.protocol`, protocol, ['SCTP', 'TCP', 'UDP']));
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
  else
    for (const m of isDNS1123Label(name))
      errs.push(invalid(`${path}.name`, name, m.replace('63 characters', '63 bytes')));
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
      if (seen.has(key))
        errs.push({ field: `${path}[${ci}].ports[${pi}].hostPort`, type: 'Duplicate value', value: key, detail: '' });
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
    if (!key && operator !== 'Exists')
      errs.push(
        invalid(
          `${at}.operator`,
          operator,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      );
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
      errs.push(
        notSupported(
          `${at}.operator`,
          operator,
          operator === 'Lt' || operator === 'Gt' ? ['Equal', 'Exists', 'Lt', 'Gt'] : ['Equal', 'Exists'],
        ),
      );
    }
    if (effect && !['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(effect)) {
      errs.push(notSupported(`${at}.effect`, effect, ['NoSchedule', 'PreferNoSchedule', 'NoExecute']));
    }
  });
  return errs;
}

/** The parts of core/validation#ValidatePodTemplateSpec that ds-doctor reads (see the file's comment). */
export function validatePodTemplate(template: PodTemplateSpec, path: string): FieldError[] {
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
    if (names.has(name))
      errs.push({ field: `${sp}.containers[${i}].name`, type: 'Duplicate value', value: name, detail: '' });
    else names.add(name);
  });
  if (containers.length) errs.push(...hostPortConflicts(containers, `${sp}.containers`, new Set()));
  const initNames = new Set<string>();
  inits.forEach((c, i) => {
    const at = `${sp}.initContainers[${i}]`;
    errs.push(...validateContainerCommon(c, at));
    const name = str(c['name']);
    if (initNames.has(name) || names.has(name))
      errs.push({ field: `${at}.name`, type: 'Duplicate value', value: name, detail: '' });
    else initNames.add(name);
  });
  const seen = new Set<string>();
  if (inits.length) errs.push(...hostPortConflicts(inits, `${sp}.initContainers`, seen));
  if (spec['hostNetwork'] === true) {
    containers.forEach((c, ci) => {
      objs(c['ports']).forEach((p, pi) => {
        const hp = num(p['hostPort']);
        if (hp !== 0 && hp !== num(p['containerPort']))
          errs.push(
            invalid(
              `${sp}.containers[${ci}].ports[${pi}].hostPort`,
              hp,
              'must match `containerPort` when `hostNetwork` is true',
            ),
          );
      });
    });
  }
  // SetDefaults_PodSpec writes Always over an empty restart policy.
  const restart = str(spec['restartPolicy']) || 'Always';
  if (!['Always', 'OnFailure', 'Never'].includes(restart))
    errs.push(notSupported(`${sp}.restartPolicy`, restart, ['Always', 'OnFailure', 'Never']));
  errs.push(...validateLabels(spec['nodeSelector'] as Record<string, unknown> | undefined, `${sp}.nodeSelector`));
  const deadline = spec['activeDeadlineSeconds'];
  if (typeof deadline === 'number' && (deadline < 1 || deadline > 2147483647))
    errs.push(invalid(`${sp}.activeDeadlineSeconds`, deadline, 'must be between 1 and 2147483647, inclusive'));
  const tolerations = objs(spec['tolerations']);
  if (tolerations.length) errs.push(...validateTolerations(tolerations, `${sp}.tolerations`));
  return errs;
}

/** The selector the API server stores: the written one, or (extensions/v1beta1) the template's labels. */
