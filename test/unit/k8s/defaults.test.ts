// API defaulting of the update strategy (kubernetes v1.35 pkg/apis/apps/v1/defaults.go#SetDefaults_DaemonSet;
// upstream cases in pkg/apis/apps/v1/defaults_test.go#TestSetDefaultDaemonSetSpec).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DaemonSet } from '../../../src/model/k8s-types.js';
import { isRollingUpdate, updateStrategyType } from '../../../src/k8s/defaults.js';

const CASES: { name: string; strategy: NonNullable<DaemonSet['spec']>['updateStrategy']; type: string }[] = [
  { name: 'no updateStrategy: RollingUpdate', strategy: undefined, type: 'RollingUpdate' },
  {
    name: 'updateStrategy without a type: RollingUpdate',
    strategy: { rollingUpdate: { maxUnavailable: 2 } },
    type: 'RollingUpdate',
  },
  {
    name: 'an empty type: RollingUpdate (defaulting tests `Type == ""`)',
    strategy: { type: '' },
    type: 'RollingUpdate',
  },
  { name: 'OnDelete as written', strategy: { type: 'OnDelete' }, type: 'OnDelete' },
  { name: 'RollingUpdate as written', strategy: { type: 'RollingUpdate' }, type: 'RollingUpdate' },
];
for (const c of CASES) {
  test(`updateStrategyType: ${c.name}`, () => {
    const ds: DaemonSet = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'd' },
      spec: c.strategy ? { updateStrategy: c.strategy } : {},
    };
    assert.equal(updateStrategyType(ds), c.type);
    assert.equal(isRollingUpdate(ds), c.type === 'RollingUpdate');
  });
}
