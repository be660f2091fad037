import { deprecatedApiVersion } from '../../../../src/lint/rules/deprecated-api-version.js';
import { goodDaemonSet, ruleTester } from '../rule-tester.js';

ruleTester(deprecatedApiVersion, {
  valid: [{ name: 'apps/v1', ds: goodDaemonSet().build() }],
  invalid: [
    {
      name: 'extensions/v1beta1 without selector or strategy: the OnDelete default is kept in the fix',
      ds: goodDaemonSet()
        .with((d) => {
          d.apiVersion = 'extensions/v1beta1';
          delete d.spec!.selector;
          delete d.spec!.updateStrategy;
        })
        .build(),
      findings: [
        {
          severity: 'error',
          path: 'apiVersion',
          message:
            /extensions\/v1beta1 was removed in Kubernetes 1\.16.*requires spec\.selector.*immutable.*so it was OnDelete and would become RollingUpdate/,
          fix: /apiVersion: apps\/v1[\s\S]*matchLabels:\n\s+app: agent[\s\S]*type: OnDelete/,
        },
      ],
    },
    {
      name: 'apps/v1beta2 keeps its strategy',
      ds: goodDaemonSet()
        .with((d) => {
          d.apiVersion = 'apps/v1beta2';
        })
        .build(),
      findings: [
        { severity: 'error', path: 'apiVersion', message: /apps\/v1beta2 was removed/, fix: /type: RollingUpdate/ },
      ],
    },
    {
      name: 'apps/v1beta1',
      ds: goodDaemonSet()
        .with((d) => {
          d.apiVersion = 'apps/v1beta1';
        })
        .build(),
      findings: [{ severity: 'error', path: 'apiVersion', message: /never served DaemonSets/ }],
    },
  ],
});
