import { selectorTemplateMismatch } from '../../../../src/lint/rules/selector-template-mismatch.js';
import { goodDaemonSet, ruleTester } from '../rule-tester.js';

ruleTester(selectorTemplateMismatch, {
  valid: [
    { name: 'selector equals the labels', ds: goodDaemonSet().build() },
    {
      name: 'selector is a subset, with an expression',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.template!.metadata!.labels = { app: 'agent', tier: 'node' };
          d.spec!.selector = {
            matchLabels: { app: 'agent' },
            matchExpressions: [{ key: 'tier', operator: 'In', values: ['node', 'edge'] }],
          };
        })
        .build(),
    },
    {
      name: 'a legacy manifest without selector is left to deprecated-api-version',
      ds: goodDaemonSet()
        .with((d) => {
          d.apiVersion = 'extensions/v1beta1';
          delete d.spec!.selector;
        })
        .build(),
    },
  ],
  invalid: [
    {
      name: 'selector misses the labels',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.template!.metadata!.labels = { app: 'node-agent' };
        })
        .build(),
      findings: [
        {
          severity: 'error',
          path: 'spec.selector',
          message: /\(app=agent\) does not match the template labels \(app=node-agent\)/,
          fix: /matchLabels:\n\s+app: node-agent/,
        },
      ],
    },
    {
      name: 'missing selector in apps/v1',
      ds: goodDaemonSet()
        .with((d) => {
          delete d.spec!.selector;
        })
        .build(),
      findings: [
        { severity: 'error', path: 'spec.selector', message: /missing.*empty selector is invalid for daemonset/ },
      ],
    },
    {
      name: 'empty selector',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.selector = {};
        })
        .build(),
      findings: [{ severity: 'error', path: 'spec.selector', message: /is empty/ }],
    },
    {
      name: 'invalid expression',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.selector = { matchExpressions: [{ key: 'app', operator: 'In', values: [] }] };
        })
        .build(),
      findings: [{ severity: 'error', path: 'spec.selector', message: /does not parse/ }],
    },
    {
      name: 'template without labels',
      ds: goodDaemonSet()
        .with((d) => {
          delete d.spec!.template!.metadata;
        })
        .build(),
      findings: [{ severity: 'error', path: 'spec.selector', message: /template labels \(none\)/ }],
    },
  ],
});
