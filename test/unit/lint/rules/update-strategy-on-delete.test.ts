import { updateStrategyOnDelete } from '../../../../src/lint/rules/update-strategy-on-delete.js';
import { goodDaemonSet, ruleTester } from '../rule-tester.js';

ruleTester(updateStrategyOnDelete, {
  valid: [
    { name: 'RollingUpdate', ds: goodDaemonSet().build() },
    {
      name: 'no strategy: apps/v1 defaults to RollingUpdate',
      ds: goodDaemonSet()
        .with((d) => {
          delete d.spec!.updateStrategy;
        })
        .build(),
    },
  ],
  invalid: [
    {
      name: 'OnDelete',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.updateStrategy = { type: 'OnDelete' };
        })
        .build(),
      findings: [
        {
          severity: 'info',
          path: 'spec.updateStrategy.type',
          message: /only when its pod is deleted.*rollout status refuses/,
          fix: /type: RollingUpdate/,
        },
      ],
    },
  ],
});
