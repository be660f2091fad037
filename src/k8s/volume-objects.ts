/**
 * A ConfigMap or Secret volume whose object does not exist: the kubelet's SetUpAt reads the object
 * and, unless the volume is `optional` (then it mounts it empty), fails with the API's NotFound
 * (kubernetes v1.35.4 pkg/volume/configmap/configmap.go#SetUpAt and pkg/volume/secret/secret.go
 * #SetUpAt). The error reaches the pod as FailedMount `MountVolume.SetUp failed for volume "<v>" :
 * configmap "<name>" not found` (`configmaps "<name>"` from kubelets that read it from the API
 * directly), and the kubelet retries the mount: the pod starts once the object exists.
 */
export interface MissingVolumeObject {
  volume?: string;
  kind: 'ConfigMap' | 'Secret';
  name: string;
}

export function missingVolumeObject(message: string): MissingVolumeObject | undefined {
  if (!/MountVolume\.SetUp failed|Unable to mount volumes|FailedMount/.test(message)) return undefined;
  const m = /\b(configmaps?|secrets?) "([^"]+)" not found/i.exec(message);
  if (!m) return undefined;
  const volume = /for volume "([^"]+)"/.exec(message)?.[1];
  return {
    ...(volume ? { volume } : {}),
    kind: m[1]!.toLowerCase().startsWith('config') ? 'ConfigMap' : 'Secret',
    name: m[2]!,
  };
}
