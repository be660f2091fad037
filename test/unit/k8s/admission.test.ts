// ResourceQuota admission of a pod: usage (pkg/quota/v1/evaluator/core/pods_test.go
// TestPodEvaluatorUsage), required requests and limits (TestPodConstraintsFunc) and the room a
// quota leaves (plugin/pkg/admission/resourcequota admission_test.go TestAdmitExceedQuota*).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  limitRangeRefusal,
  missingConstraints,
  podQuotaUsage,
  quotaAdmission,
  withReleasedUsage,
} from '../../../src/k8s/admission.js';
import type { PodSpec, ResourceQuota } from '../../../src/model/k8s-types.js';

const quota = (hard: Record<string, string>, used: Record<string, string> = {}): ResourceQuota => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name: 'q', namespace: 'ops' },
  spec: { hard },
  status: { hard, used },
});
const spec = (requests: Record<string, string> = {}, limits: Record<string, string> = {}): PodSpec => ({
  containers: [{ name: 'agent', image: 'x', resources: { requests, limits } }],
});

test('usage: requests default from limits; pods and count/pods count 1 (TestPodEvaluatorUsage)', () => {
  const u = podQuotaUsage(spec({ cpu: '250m' }, { memory: '1Gi' }));
  assert.deepEqual(
    [
      u.get('pods'),
      u.get('count/pods'),
      u.get('requests.cpu'),
      u.get('requests.memory'),
      u.get('limits.memory'),
      u.get('limits.cpu'),
    ],
    [1, 1, 250, 1024 ** 3, 1024 ** 3, 0],
  );
});

const CONSTRAINTS: { name: string; hard: Record<string, string>; spec: PodSpec; want: string | undefined }[] = [
  {
    name: 'limits.memory required and missing',
    hard: { 'limits.memory': '1Gi' },
    spec: spec({ memory: '1Gi' }),
    want: 'must specify limits.memory for: agent',
  },
  {
    name: 'requests.cpu given by the limit',
    hard: { 'requests.cpu': '1' },
    spec: spec({}, { cpu: '1' }),
    want: undefined,
  },
  {
    name: 'two resources missing',
    hard: { 'requests.cpu': '1', 'limits.memory': '1Gi' },
    spec: spec(),
    want: 'must specify limits.memory for: agent; requests.cpu for: agent',
  },
  { name: 'pods only: nothing required', hard: { pods: '3' }, spec: spec(), want: undefined },
];
for (const c of CONSTRAINTS) {
  test(`quota constraints (TestPodConstraintsFunc): ${c.name}`, () =>
    assert.equal(missingConstraints(quota(c.hard), c.spec), c.want));
}

const ROOM: { name: string; quota: ResourceQuota; spec: PodSpec; admitted: number; refusal?: RegExp }[] = [
  {
    name: 'pods 3, used 1: two more',
    quota: quota({ pods: '3' }, { pods: '1' }),
    spec: spec(),
    admitted: 2,
    refusal: /exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=3/,
  },
  { name: 'pods 0: none', quota: quota({ pods: '0' }), spec: spec(), admitted: 0, refusal: /limited: pods=0/ },
  {
    name: 'requests.cpu 1, used 600m, 250m each: one',
    quota: quota({ 'requests.cpu': '1' }, { 'requests.cpu': '600m' }),
    spec: spec({ cpu: '250m' }),
    admitted: 1,
    refusal: /requested: requests.cpu=250m, used: requests.cpu=600m, limited: requests.cpu=1/,
  },
  {
    name: 'missing limit: failed quota',
    quota: quota({ 'limits.memory': '4Gi' }),
    spec: spec({ memory: '1Gi' }),
    admitted: 0,
    refusal: /^pods "agent-" is forbidden: failed quota: q: must specify limits.memory for: agent$/,
  },
  {
    name: 'a quota on other resources admits every pod',
    quota: quota({ 'requests.storage': '1Gi' }),
    spec: spec({ cpu: '1' }),
    admitted: Number.POSITIVE_INFINITY,
  },
];
for (const c of ROOM) {
  test(`quota room: ${c.name}`, () => {
    const r = quotaAdmission([c.quota], c.spec, 'agent-');
    assert.equal(r.admitted, c.admitted);
    if (c.refusal) assert.match(r.refusal ?? '', c.refusal);
    else assert.equal(r.refusal, undefined);
  });
}

// LimitRanger (plugin/pkg/admission/limitranger admission_test.go TestPodLimitFunc): defaults
// merged, then min/max, then requests against limits.
const limitRange = (item: Record<string, Record<string, string>>) => ({
  apiVersion: 'v1',
  kind: 'LimitRange',
  metadata: { name: 'lr', namespace: 'ops' },
  spec: { limits: [{ type: 'Container', ...item }] },
});
const LIMITS: {
  name: string;
  item: Record<string, Record<string, string>>;
  spec: PodSpec;
  want: string | undefined;
}[] = [
  {
    name: 'a default limit below the request makes the pod invalid',
    item: { default: { cpu: '1' }, defaultRequest: { cpu: '1' } },
    spec: spec({ cpu: '2' }),
    want: 'Pod "agent-" is invalid: spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
  },
  {
    name: 'a limit over max is forbidden',
    item: { max: { cpu: '1' } },
    spec: spec({}, { cpu: '2' }),
    want: 'pods "agent-" is forbidden: maximum cpu usage per Container is 1, but limit is 2',
  },
  {
    name: 'max without a limit: the default limit fills it',
    item: { max: { memory: '1Gi' }, default: { memory: '512Mi' } },
    spec: spec(),
    want: undefined,
  },
  {
    name: 'a request under min is forbidden',
    item: { min: { memory: '64Mi' } },
    spec: spec({ memory: '32Mi' }),
    want: 'pods "agent-" is forbidden: minimum memory usage per Container is 64Mi, but request is 32Mi',
  },
  {
    name: 'within bounds is admitted',
    item: { max: { cpu: '2' }, min: { cpu: '100m' } },
    spec: spec({ cpu: '1' }, { cpu: '1' }),
    want: undefined,
  },
];
for (const c of LIMITS) {
  test(`LimitRange: ${c.name}`, () => assert.equal(limitRangeRefusal([limitRange(c.item)], c.spec, 'agent-'), c.want));
}

test('a released old pod frees its usage; an unparsable used quantity counts as 0, never throws', () => {
  const q = withReleasedUsage(
    quota({ pods: '2', 'requests.cpu': '1' }, { pods: '2', 'requests.cpu': '800m' }),
    podQuotaUsage(spec({ cpu: '300m' })),
  );
  assert.deepEqual(q.status?.used, { pods: '1', 'requests.cpu': '500m' });
  assert.equal(quotaAdmission([q], spec({ cpu: '300m' }), 'agent-').admitted, 1);
  assert.deepEqual(withReleasedUsage(quota({ pods: '2' }, { pods: 'lots' }), podQuotaUsage(spec())).status?.used, {
    pods: '0',
  });
});
