import { selectorMutableLabel } from '../../../../src/lint/rules/selector-mutable-label.js';
import type { LabelSelector } from '../../../../src/model/k8s-types.js';
import { goodDaemonSet, ruleTester } from '../rule-tester.js';

function selecting(selector: LabelSelector) {
  return goodDaemonSet('agent')
    .with((d) => {
      d.spec!.selector = selector;
      d.spec!.template!.metadata = { labels: { ...(selector.matchLabels ?? {}) } };
    })
    .build();
}

ruleTester(selectorMutableLabel, {
  valid: [
    {
      name: 'identity labels only',
      ds: selecting({ matchLabels: { 'app.kubernetes.io/name': 'agent', 'app.kubernetes.io/instance': 'agent' } }),
    },
    {
      name: 'a component name with a digit is no version',
      ds: selecting({ matchLabels: { app: 'k8s-app', component: 'agent-v2' } }),
    },
    {
      name: 'an In expression over names',
      ds: selecting({ matchExpressions: [{ key: 'app', operator: 'In', values: ['agent', 'agent-legacy'] }] }),
    },
  ],
  invalid: [
    {
      name: 'app.kubernetes.io/version: master (juicefs-csi)',
      ds: selecting({ matchLabels: { app: 'juicefs-csi-node', 'app.kubernetes.io/version': 'master' } }),
      findings: [
        {
          severity: 'warning',
          path: 'spec.selector.matchLabels',
          message: /holds app\.kubernetes\.io\/version=master \(a version label\): the selector is immutable/,
          fix: /matchLabels:\n\s+app: juicefs-csi-node$/,
        },
      ],
    },
    {
      name: 'version: v1 (fluentd)',
      ds: selecting({ matchLabels: { 'k8s-app': 'fluentd-logging', version: 'v1' } }),
      findings: [{ severity: 'warning', path: 'spec.selector.matchLabels', message: /version=v1/ }],
    },
    {
      name: 'a chart label',
      ds: selecting({ matchLabels: { app: 'agent', 'helm.sh/chart': 'agent-1.4.2' } }),
      findings: [
        {
          severity: 'warning',
          path: 'spec.selector.matchLabels',
          message: /helm\.sh\/chart=agent-1\.4\.2 \(a chart label\)/,
        },
      ],
    },
    {
      name: 'a version value under another key',
      ds: selecting({ matchLabels: { app: 'agent', release: '2.3.1' } }),
      findings: [
        { severity: 'warning', path: 'spec.selector.matchLabels', message: /release=2\.3\.1 \(a version value\)/ },
      ],
    },
    {
      name: 'a branch in an In expression',
      ds: goodDaemonSet('agent')
        .with((d) => {
          d.spec!.selector = {
            matchLabels: { app: 'agent' },
            matchExpressions: [{ key: 'track', operator: 'In', values: ['stable'] }],
          };
          d.spec!.template!.metadata = { labels: { app: 'agent', track: 'stable' } };
        })
        .build(),
      findings: [
        {
          severity: 'warning',
          path: 'spec.selector.matchExpressions[0]',
          message: /track In \(stable\) names stable \(the branch or channel stable\)/,
        },
      ],
    },
  ],
});
