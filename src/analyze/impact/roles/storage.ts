/**
 * What deleting a DaemonSet of role `storage` breaks on its nodes.
 * A CSI node plugin: volume mounts and unmounts on its nodes.
 */
import type { Pod } from '../../../model/k8s-types.js';
import { objectKey } from '../../../model/snapshot-index.js';
import { csiDriversServed } from '../../../model/roles.js';
import {
  addFinding,
  addRisk,
  agree,
  limit,
  missing,
  nameList,
  othersOn,
  plural,
  podName,
  type Analysis,
} from '../analysis.js';

interface VolumeUse {
  pod: Pod;
  node: string;
  what: string;
  /** True for an inline CSI volume of one of the plugin's drivers; false for a claim. */
  certain: boolean;
}

function volumeUses(a: Analysis, drivers: string[]): VolumeUse[] {
  const uses: VolumeUse[] = [];
  for (const [node, pods] of othersOn(a, a.nodes)) {
    for (const pod of pods) {
      for (const v of pod.spec?.volumes ?? []) {
        const csi = v.csi;
        if (csi?.driver && drivers.includes(csi.driver))
          uses.push({ pod, node, what: `inline CSI volume ${v.name} (${csi.driver})`, certain: true });
        else if (v.persistentVolumeClaim)
          uses.push({ pod, node, what: `claim ${v.persistentVolumeClaim.claimName}`, certain: false });
        else if (v['ephemeral']) uses.push({ pod, node, what: `generic ephemeral volume ${v.name}`, certain: false });
      }
    }
  }
  return uses;
}

export function storageRole(a: Analysis): void {
  const snapshot = a.index.snapshot;
  const known = snapshot.csiDrivers
    .map((d) => d.metadata?.name ?? '')
    .filter(Boolean)
    .sort();
  const drivers = csiDriversServed(a.ds, known);
  const driverText = drivers.length
    ? `CSI driver ${drivers.join(', ')}`
    : 'its CSI driver (name not found in the template)';
  // Claims name no driver; without PersistentVolumes they are attributed to this plugin only when
  // no other CSI driver is known (a CSIDriver object or another node plugin in the snapshot).
  const others = new Set(known.filter((d) => !drivers.includes(d)));
  for (const other of snapshot.daemonSets) {
    if (other === a.ds) continue;
    for (const d of csiDriversServed(other, known)) if (!drivers.includes(d)) others.add(d);
  }
  const uses = volumeUses(a, drivers);
  const claims = uses.filter((u) => !u.certain);
  const attributed = others.size === 0;
  if (missing(a, 'CSIDriver'))
    a.notChecked.push(
      `the CSIDriver object of the plugin (no CSIDriver objects in the input: the driver name comes from the plugin directory${drivers.length ? `, ${drivers.join(', ')}` : ''})`,
    );
  if (claims.length) {
    a.notChecked.push(
      `which CSI driver backs each PersistentVolumeClaim (PersistentVolumeClaims and PersistentVolumes are not read): ${attributed ? `claims on these nodes are counted against ${driverText}, the only CSI driver in the input` : `claims may also be on ${[...others].sort().join(', ')}`}`,
    );
  }
  const counted = uses.filter((u) => u.certain || attributed);
  const podsCounted = new Set(counted.map((u) => objectKey(u.pod)));
  const lines = limit(
    uses.map((u) => `${u.node}: ${podName(u.pod)} (${u.what})`),
    'more volumes',
  );
  const message = `${driverText} stops serving ${plural(a.nodes.length, 'node')}: volumes already mounted keep working, but new mounts and unmounts fail, so a pod there that starts, is re-created or is deleted hangs in ContainerCreating (FailedMount) or Terminating`;
  if (podsCounted.size) {
    addFinding(
      a,
      'VolumeOperationsStop',
      'error',
      `${message}; ${plural(podsCounted.size, 'pod')} there ${agree(podsCounted.size, 'uses', 'use')} its volumes`,
      lines,
    );
    addRisk(
      a,
      'critical',
      `storage: ${plural(podsCounted.size, 'pod')} on these nodes ${agree(podsCounted.size, 'uses', 'use')} volumes of ${driverText}`,
    );
  } else if (claims.length) {
    const podsWithClaims = new Set(claims.map((u) => objectKey(u.pod))).size;
    addFinding(
      a,
      'VolumeOperationsStop',
      'warning',
      `${message}; ${plural(podsWithClaims, 'pod')} there ${agree(podsWithClaims, 'has', 'have')} claims that may be on it`,
      lines,
    );
    addRisk(
      a,
      'high',
      `storage: ${plural(podsWithClaims, 'pod')} on these nodes ${agree(podsWithClaims, 'has', 'have')} claims that may use ${driverText}`,
    );
  } else {
    addFinding(a, 'VolumeOperationsStop', 'warning', `${message}; no pod there uses its volumes now`, [
      `nodes: ${nameList(a.nodes, 10)}`,
    ]);
    addRisk(
      a,
      'medium',
      `storage: new volumes of ${driverText} cannot be mounted on ${plural(a.nodes.length, 'node')} (no pod uses one now)`,
    );
  }
}
