// The API server's DaemonSet validation (kubernetes v1.35.4 pkg/apis/apps/validation/validation.go).
// Cases ported from pkg/apis/apps/validation/validation_test.go: TestValidateDaemonSet,
// TestValidateDaemonSetUpdate and TestDaemonSetUpdateMaxSurge; the texts are the API server's, as
// test/e2e/api-validation.test.ts checks them against a real one by server-side dry run.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DaemonSet, IntOrString } from '../../../src/model/k8s-types.js';
import { daemonSet } from '../../builders.js';
import {
  formatFieldError,
  invalidMessage,
  validateDaemonSet,
  validateDaemonSetUpdate,
  validateRollingUpdateDaemonSet,
} from '../../../src/k8s/validation.js';

/** A manifest as a client writes it: `a: b` selects the template, no strategy written. */
function manifest(edit: (ds: DaemonSet) => void = () => {}): DaemonSet {
  const ds = daemonSet('abc', 'default')
    .with((d) => {
      d.metadata = { name: 'abc', namespace: 'default' };
      d.spec!.selector = { matchLabels: { a: 'b' } };
      d.spec!.template!.metadata = { labels: { a: 'b' } };
      delete d.spec!.updateStrategy;
      delete d.status;
    })
    .build();
  edit(ds);
  return ds;
}

const errors = (ds: DaemonSet): string[] => validateDaemonSet(ds).map(formatFieldError);
const strategy =
  (rollingUpdate: { maxUnavailable?: IntOrString; maxSurge?: IntOrString }, type = 'RollingUpdate') =>
  (d: DaemonSet) => {
    d.spec!.updateStrategy = { type, rollingUpdate };
  };

describe('ValidateDaemonSet (TestValidateDaemonSet and the strategy texts)', () => {
  const CASES: { name: string; edit: (ds: DaemonSet) => void; errors: string[] }[] = [
    { name: 'success: OnDelete', edit: (d) => (d.spec!.updateStrategy = { type: 'OnDelete' }), errors: [] },
    { name: 'success: name abc-123', edit: (d) => (d.metadata!.name = 'abc-123'), errors: [] },
    {
      name: 'success: hostNetwork with a containerPort and no hostPort (defaulted only in the pod)',
      edit: (d) => {
        d.spec!.template!.spec!.hostNetwork = true;
        d.spec!.template!.spec!.containers![0]!.ports = [{ containerPort: 12345, protocol: 'TCP' }];
      },
      errors: [],
    },
    {
      name: 'success: no strategy (defaulted RollingUpdate, maxUnavailable 1, maxSurge 0)',
      edit: () => {},
      errors: [],
    },
    {
      name: 'success: maxSurge 1 with maxUnavailable 0',
      edit: strategy({ maxUnavailable: 0, maxSurge: 1 }),
      errors: [],
    },
    { name: 'success: 100%', edit: strategy({ maxUnavailable: '100%' }), errors: [] },
    {
      name: 'zero-length ID',
      edit: (d) => (d.metadata!.name = ''),
      errors: ['metadata.name: Required value: name or generateName is required'],
    },
    {
      name: 'nil selector: nothing matches the template labels',
      edit: (d) => delete d.spec!.selector,
      errors: ['spec.template.metadata.labels: Invalid value: {"a":"b"}: `selector` does not match template `labels`'],
    },
    {
      name: 'empty selector',
      edit: (d) => (d.spec!.selector = {}),
      errors: ['spec.selector: Invalid value: {}: empty selector is invalid for daemonset'],
    },
    {
      name: 'selector_doesnt_match',
      edit: (d) => (d.spec!.selector = { matchLabels: { foo: 'bar' } }),
      errors: ['spec.template.metadata.labels: Invalid value: {"a":"b"}: `selector` does not match template `labels`'],
    },
    {
      name: 'invalid template: no containers',
      edit: (d) => (d.spec!.template!.spec!.containers = []),
      errors: ['spec.template.spec.containers: Required value'],
    },
    {
      name: 'invalid restart policy 1 (OnFailure)',
      edit: (d) => (d.spec!.template!.spec!.restartPolicy = 'OnFailure'),
      errors: ['spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"'],
    },
    {
      name: 'invalid restart policy 2 (Never)',
      edit: (d) => (d.spec!.template!.spec!.restartPolicy = 'Never'),
      errors: ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"'],
    },
    {
      name: 'maxSurge 1 with the defaulted maxUnavailable 1',
      edit: strategy({ maxSurge: 1 }),
      errors: [
        'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero',
      ],
    },
    {
      name: 'maxUnavailable 0 with no surge',
      edit: strategy({ maxUnavailable: 0 }),
      errors: ['spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0'],
    },
    {
      name: 'maxUnavailable over 100%',
      edit: strategy({ maxUnavailable: '101%' }),
      errors: [
        'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "101%": must not be greater than 100%',
      ],
    },
    {
      name: 'a percentage without %',
      edit: strategy({ maxUnavailable: '10' }),
      errors: [
        `spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "10": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
      ],
    },
    {
      name: 'a negative maxUnavailable',
      edit: strategy({ maxUnavailable: -1 }),
      errors: [
        'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0',
      ],
    },
    {
      name: 'an unknown strategy type',
      edit: (d) => (d.spec!.updateStrategy = { type: 'Random' }),
      errors: [
        'spec.updateStrategy: Unsupported value: {"Type":"Random","RollingUpdate":null}: supported values: "RollingUpdate", "OnDelete"',
      ],
    },
    {
      name: 'negative minReadySeconds and revisionHistoryLimit',
      edit: (d) => {
        d.spec!.minReadySeconds = -1;
        d.spec!.revisionHistoryLimit = -1;
      },
      errors: [
        'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
        'spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0',
      ],
    },
    {
      name: 'a hostPort that differs from containerPort under hostNetwork',
      edit: (d) => {
        d.spec!.template!.spec!.hostNetwork = true;
        d.spec!.template!.spec!.containers![0]!.ports = [{ containerPort: 80, hostPort: 8080 }];
      },
      errors: [
        'spec.template.spec.containers[0].ports[0].hostPort: Invalid value: 8080: must match `containerPort` when `hostNetwork` is true',
      ],
    },
    {
      name: 'a toleration with an empty key and operator Equal',
      edit: (d) => (d.spec!.template!.spec!.tolerations = [{ operator: 'Equal', effect: 'NoSchedule' }]),
      errors: [
        'spec.template.spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
      ],
    },
    {
      name: 'activeDeadlineSeconds',
      edit: (d) => ((d.spec!.template!.spec! as Record<string, unknown>)['activeDeadlineSeconds'] = 10),
      errors: [
        'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported',
      ],
    },
  ];
  for (const c of CASES) {
    test(c.name, () => assert.deepEqual(errors(manifest(c.edit)), c.errors));
  }
});

describe('ValidateRollingUpdateDaemonSet (TestDaemonSetUpdateMaxSurge: an unset field is the zero int)', () => {
  const CASES: { name: string; maxUnavailable?: IntOrString; maxSurge?: IntOrString; error: boolean }[] = [
    { name: 'invalid: unset', error: true },
    { name: 'invalid: zero percent', maxUnavailable: '0%', error: true },
    { name: 'invalid: zero', maxUnavailable: 0, error: true },
    { name: 'valid: one', maxUnavailable: 1, error: false },
    { name: 'valid: one percent', maxUnavailable: '1%', error: false },
    { name: 'valid: 100%', maxUnavailable: '100%', error: false },
    { name: 'invalid: greater than 100%', maxUnavailable: '101%', error: true },
    { name: 'invalid: surge and unavailable set', maxUnavailable: '1%', maxSurge: '1%', error: true },
    { name: 'invalid: surge enabled, surge zero percent', maxSurge: '0%', error: true },
    { name: 'valid: surge enabled, surge one', maxSurge: 1, error: false },
    { name: 'valid: surge enabled, surge one percent', maxSurge: '1%', error: false },
    { name: 'valid: surge enabled, surge 100%', maxSurge: '100%', error: false },
    { name: 'invalid: surge enabled, surge greater than 100%', maxSurge: '101%', error: true },
    {
      name: 'invalid: surge enabled, surge and unavailable mixed zero',
      maxUnavailable: 0,
      maxSurge: '0%',
      error: true,
    },
  ];
  for (const c of CASES) {
    test(c.name, () => {
      const errs = validateRollingUpdateDaemonSet(
        c.maxUnavailable ?? 0,
        c.maxSurge ?? 0,
        'spec.updateStrategy.rollingUpdate',
      );
      assert.equal(errs.length > 0, c.error, errs.map(formatFieldError).join('; '));
    });
  }
});

describe('ValidateDaemonSetUpdate (TestValidateDaemonSetUpdate)', () => {
  const old = manifest((d) => (d.spec!.updateStrategy = { type: 'OnDelete' }));
  const CASES: { name: string; edit: (ds: DaemonSet) => void; errors: number; match?: RegExp }[] = [
    { name: 'success: the same', edit: (d) => (d.spec!.updateStrategy = { type: 'OnDelete' }), errors: 0 },
    {
      name: 'success: a new template under the same selector',
      edit: (d) => (d.spec!.template!.spec!.nodeSelector = { a: 'b' }),
      errors: 0,
    },
    { name: 'success: to RollingUpdate', edit: strategy({ maxUnavailable: 1 }), errors: 0 },
    {
      name: 'change selector',
      edit: (d) => {
        d.spec!.selector = { matchLabels: { c: 'd' } };
        d.spec!.template!.metadata!.labels = { c: 'd' };
      },
      errors: 1,
      match: /^spec\.selector: Invalid value: \{"matchLabels":\{"c":"d"\}\}: field is immutable$/,
    },
    {
      name: 'invalid selector: immutable, and the key is invalid (no mismatch reported when the selector does not convert)',
      edit: (d) => (d.spec!.selector = { matchLabels: { 'NoUppercaseOrSpecialCharsLike=Equals': 'b' } }),
      errors: 2,
    },
    {
      name: 'invalid update strategy',
      edit: (d) => (d.spec!.updateStrategy = { type: 'Random' }),
      errors: 1,
      match: /Unsupported value/,
    },
  ];
  for (const c of CASES) {
    test(c.name, () => {
      const errs = validateDaemonSetUpdate(manifest(c.edit), old).map(formatFieldError);
      assert.equal(errs.length, c.errors, errs.join('; '));
      if (c.match) assert.match(errs[0] ?? '', c.match);
    });
  }
});

describe('NewInvalid: the status message', () => {
  test('one error as is', () => {
    assert.equal(
      invalidMessage('abc', validateDaemonSet(manifest(strategy({ maxSurge: 1 })))),
      'DaemonSet.apps "abc" is invalid: spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero',
    );
  });
  test('several in brackets, in validation order', () => {
    const errs = validateDaemonSet(
      manifest((d) => {
        d.spec!.minReadySeconds = -1;
        strategy({ maxUnavailable: 0 })(d);
      }),
    );
    assert.equal(
      invalidMessage('abc', errs),
      'DaemonSet.apps "abc" is invalid: [spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0, spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0]',
    );
  });
});
