/**
 * API defaulting of a DaemonSet that the analyses read: `SetDefaults_DaemonSet`
 * (kubernetes v1.35 pkg/apis/apps/v1/defaults.go#SetDefaults_DaemonSet), and of its pod template,
 * for the fields a manifest usually leaves out: kubernetes v1.35 pkg/apis/core/v1/defaults.go
 * (`SetDefaults_PodSpec`, `SetDefaults_Container`, `SetDefaults_ContainerPort`,
 * `SetDefaults_Probe`, `SetDefaults_HTTPGetAction`, `SetDefaults_Volume`,
 * `SetDefaults_ConfigMapVolumeSource`, `SetDefaults_SecretVolumeSource`,
 * `SetDefaults_ObjectFieldSelector`) and the v1 conversion that copies serviceAccountName to the
 * deprecated serviceAccount. A dump written by the API server carries the defaults; a manifest may
 * leave them out, and the two then compare equal when they differ only by defaults, as their
 * template hashes do.
 */
import type { DaemonSet, PodTemplateSpec } from '../model/k8s-types.js';

/** `spec.updateStrategy.type`, or `RollingUpdate`, which apps/v1 defaulting sets when it is absent or empty. */
export function updateStrategyType(ds: DaemonSet): string {
  return ds.spec?.updateStrategy?.type || 'RollingUpdate';
}

/** True when the update strategy is RollingUpdate, written or defaulted. */
export function isRollingUpdate(ds: DaemonSet): boolean {
  return updateStrategyType(ds) === 'RollingUpdate';
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function setDefault(o: Obj, key: string, value: unknown): void {
  if (o[key] === undefined || o[key] === null) o[key] = value;
}

/** `SetDefaults_Probe` and `SetDefaults_HTTPGetAction`. */
function defaultProbe(p: unknown): void {
  if (!isObj(p)) return;
  setDefault(p, 'timeoutSeconds', 1);
  setDefault(p, 'periodSeconds', 10);
  setDefault(p, 'successThreshold', 1);
  setDefault(p, 'failureThreshold', 3);
  if (isObj(p['httpGet'])) {
    setDefault(p['httpGet'], 'path', '/');
    setDefault(p['httpGet'], 'scheme', 'HTTP');
  }
}

/** `SetDefaults_Container`: pull policy by tag, termination message, ports, probes, field refs. */
function defaultContainer(c: unknown): void {
  if (!isObj(c)) return;
  const image = typeof c['image'] === 'string' ? c['image'] : '';
  const lastPart = image.split('/').pop() ?? '';
  const tagged = lastPart.includes(':') && !image.includes('@');
  const latest = !image.includes('@') && (!tagged || lastPart.endsWith(':latest'));
  setDefault(c, 'imagePullPolicy', latest ? 'Always' : 'IfNotPresent');
  setDefault(c, 'terminationMessagePath', '/dev/termination-log');
  setDefault(c, 'terminationMessagePolicy', 'File');
  setDefault(c, 'resources', {});
  for (const port of Array.isArray(c['ports']) ? c['ports'] : []) {
    if (!isObj(port)) continue;
    // hostPort is not defaulted in templates since v1.28 (only in pods: SetDefaults_Pod).
    setDefault(port, 'protocol', 'TCP');
  }
  for (const key of ['readinessProbe', 'livenessProbe', 'startupProbe']) defaultProbe(c[key]);
  for (const e of Array.isArray(c['env']) ? c['env'] : []) {
    const ref = isObj(e) && isObj(e['valueFrom']) ? e['valueFrom']['fieldRef'] : undefined;
    if (isObj(ref)) setDefault(ref, 'apiVersion', 'v1');
  }
}

const MODE_0644 = 420;

/** `SetDefaults_Volume` and the volume sources' default modes. */
function defaultVolume(v: unknown): void {
  if (!isObj(v)) return;
  const sources = Object.keys(v).filter((k) => k !== 'name');
  if (!sources.length) v['emptyDir'] = {};
  for (const key of ['configMap', 'secret', 'projected', 'downwardAPI']) {
    if (isObj(v[key])) setDefault(v[key], 'defaultMode', MODE_0644);
  }
  if (isObj(v['hostPath'])) setDefault(v['hostPath'], 'type', '');
}

/**
 * A copy of `template` with the API server's defaults filled in, and without the fields the
 * server never stores in a template (`metadata.creationTimestamp: null`).
 */
export function defaultedPodTemplate(template: PodTemplateSpec | undefined): PodTemplateSpec {
  const t = structuredClone(template ?? {}) as Obj;
  if (isObj(t['metadata'])) {
    delete t['metadata']['creationTimestamp'];
    if (!Object.keys(t['metadata']).length) delete t['metadata'];
  }
  if (!isObj(t['spec'])) t['spec'] = {};
  const spec = t['spec'] as Obj;
  setDefault(spec, 'dnsPolicy', 'ClusterFirst');
  setDefault(spec, 'restartPolicy', 'Always');
  setDefault(spec, 'securityContext', {});
  setDefault(spec, 'terminationGracePeriodSeconds', 30);
  setDefault(spec, 'schedulerName', 'default-scheduler');
  if (typeof spec['serviceAccountName'] === 'string' && spec['serviceAccountName'])
    setDefault(spec, 'serviceAccount', spec['serviceAccountName']);
  for (const key of ['containers', 'initContainers']) {
    for (const c of Array.isArray(spec[key]) ? spec[key] : []) defaultContainer(c);
  }
  for (const v of Array.isArray(spec['volumes']) ? spec['volumes'] : []) defaultVolume(v);
  return t;
}
