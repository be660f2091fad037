// Before v1.27 the DaemonSet controller's syncDaemonSet returned the error of a failed pod creation
// before it wrote the status (kubernetes#100683: desiredNumberScheduled 0 and no observedGeneration
// under a ResourceQuota of pods: 0); kubernetes#113787 (v1.27.0, backported to 1.25 and 1.26) writes
// it anyway (kubernetes v1.35.4 pkg/controller/daemon/daemon_controller.go#syncDaemonSet calls
// updateDaemonSetStatus whatever updateDaemonSet returned). A status behind the spec next to
// FailedCreate events is that, not a stopped controller: the controller made the events.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnoseAllNodes } from '../../src/analyze/placement/index.js';
import { diagnoseRollout } from '../../src/analyze/rollout/index.js';
import { scan } from '../../src/analyze/scan.js';
import { NOW, daemonSet, event, indexOf, node } from '../builders.js';

const REFUSAL =
  'Error creating: pods "node-exporter-" is forbidden: error looking up service account default/node-exporter: serviceaccount "node-exporter" not found';

function unsynced() {
  return daemonSet('node-exporter', 'default')
    .with((d) => {
      d.status = { currentNumberScheduled: 0, desiredNumberScheduled: 0, numberMisscheduled: 0, numberReady: 0 };
    })
    .build();
}

describe('a status behind the spec', () => {
  const cases: { name: string; failing: boolean; severity: string; message: RegExp; fix: RegExp }[] = [
    {
      name: 'with FailedCreate: the controller runs and wrote no status (info)',
      failing: true,
      severity: 'info',
      message: /the controller runs \(it reports FailedCreate\) but has written no status.*kubernetes#100683/,
      fix: /nothing to do about kube-controller-manager: fix the FailedCreate/,
    },
    {
      name: 'without events: the controller may not have acted (warning, as before)',
      failing: false,
      severity: 'warning',
      message: /the controller has not yet processed the latest spec \(observedGeneration 0 < generation 1\)/,
      fix: /check that kube-controller-manager is running/,
    },
  ];
  for (const c of cases)
    test(c.name, () => {
      const ds = unsynced();
      const index = indexOf({
        nodes: [node('n1').build()],
        daemonSets: [ds],
        pods: [],
        ...(c.failing ? { events: [event('DaemonSet', ds, 'FailedCreate', REFUSAL)] } : {}),
      });
      const reason = diagnoseAllNodes(index, ds, NOW, 600)[0]!.reasons.find((r) => r.code === 'ControllerNotObserved');
      assert.ok(reason);
      assert.equal(reason.severity, c.severity);
      assert.match(reason.message, c.message);
      assert.match(reason.fix, c.fix);
      const rollout = diagnoseRollout(index, ds, NOW, 600).reasons.find((r) => r.code === 'ControllerNotObserved');
      assert.ok(rollout);
      assert.equal(rollout.severity, c.severity);
      const entry = scan(index, [ds], NOW, 'all namespaces').daemonSets[0]!;
      assert.match(
        entry.statusMismatch.join(' '),
        c.failing
          ? /has written no status since its pod creation started failing/
          : /has not observed the latest generation/,
      );
    });
});
