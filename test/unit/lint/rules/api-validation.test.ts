import { apiValidation } from '../../../../src/lint/rules/api-validation.js';
import type { DaemonSet } from '../../../../src/model/k8s-types.js';
import { goodDaemonSet, ruleTester } from '../rule-tester.js';

const withStrategy = (updateStrategy: NonNullable<DaemonSet['spec']>['updateStrategy']) =>
  goodDaemonSet().with((d) => (d.spec!.updateStrategy = updateStrategy));

ruleTester(apiValidation, {
  valid: [
    { name: 'RollingUpdate with maxUnavailable 1', ds: goodDaemonSet().build() },
    {
      name: 'no strategy written (defaulted)',
      ds: goodDaemonSet()
        .with((d) => delete d.spec!.updateStrategy)
        .build(),
    },
    {
      name: 'surge with maxUnavailable written as 0',
      ds: withStrategy({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '10%' } }).build(),
    },
    {
      name: 'OnDelete with a rollingUpdate block (not validated for OnDelete)',
      ds: withStrategy({ type: 'OnDelete', rollingUpdate: { maxUnavailable: 0 } }).build(),
    },
    // selector-template-mismatch reports these.
    {
      name: 'an empty selector is the selector rule',
      ds: goodDaemonSet()
        .with((d) => (d.spec!.selector = {}))
        .build(),
    },
  ],
  invalid: [
    {
      name: 'maxSurge 1 with the defaulted maxUnavailable 1',
      ds: withStrategy({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } }).build(),
      findings: [
        {
          severity: 'error',
          path: 'spec.updateStrategy.rollingUpdate.maxSurge',
          message:
            /^the API server refuses the DaemonSet: spec\.updateStrategy\.rollingUpdate\.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero$/,
          fix: /maxUnavailable: 0\n\s+maxSurge: 1/,
        },
      ],
    },
    {
      name: 'maxUnavailable 0 with no surge',
      ds: withStrategy({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0 } }).build(),
      findings: [
        {
          severity: 'error',
          path: 'spec.updateStrategy.rollingUpdate.maxUnavailable',
          message: /Required value: cannot be 0 when maxSurge is 0$/,
          fix: /maxUnavailable: 1/,
        },
      ],
    },
    {
      name: 'a percentage over 100%',
      ds: withStrategy({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '150%' } }).build(),
      findings: [
        {
          severity: 'error',
          path: 'spec.updateStrategy.rollingUpdate.maxUnavailable',
          message: /Invalid value: "150%": must not be greater than 100%$/,
          fix: /dry-run=server/,
        },
      ],
    },
    {
      name: 'an unknown type',
      ds: withStrategy({ type: 'Rolling' }).build(),
      findings: [
        {
          severity: 'error',
          path: 'spec.updateStrategy',
          message: /Unsupported value: .*"Rolling".*supported values: "RollingUpdate", "OnDelete"$/,
          fix: /type: RollingUpdate/,
        },
      ],
    },
    {
      name: 'restartPolicy Never',
      ds: goodDaemonSet()
        .with((d) => (d.spec!.template!.spec!.restartPolicy = 'Never'))
        .build(),
      findings: [
        {
          severity: 'error',
          path: 'spec.template.spec.restartPolicy',
          message: /Unsupported value: "Never": supported values: "Always"$/,
          fix: /remove restartPolicy/,
        },
      ],
    },
  ],
});
