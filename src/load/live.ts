/**
 * The live-cluster loader. Imported lazily, only when no -f is given, so that the offline path
 * never loads @kubernetes/client-node.
 */
import { InputError } from '../model/errors.js';
import type { ClusterSnapshot, LoadedSnapshot, LoadRequest } from '../model/snapshot.js';

export async function loadLive(_request: LoadRequest, _opts: unknown, _io: unknown): Promise<LoadedSnapshot> {
  throw new InputError('reading a live cluster is not available in this version yet: pass a dump with -f <file|dir|->');
}

export async function writeDump(_snapshot: ClusterSnapshot, _file: string): Promise<void> {
  throw new InputError('--dump needs a live cluster, which this version cannot read yet');
}
