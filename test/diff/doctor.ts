/**
 * Running ds-doctor the way a user does — the CLI's `main(argv, io)`, in this process, live
 * against the control plane (`--kubeconfig`) or on a `kubectl get … -o yaml` dump (`-f`) — and
 * taking that dump.
 */
import { main } from '../../src/cli/main.js';
import { capturingIo } from '../harness.js';
import type { ControlPlane } from '../cluster/harness.js';

export interface DoctorRun {
  code: number;
  stdout: string;
  stderr: string;
  argv: string[];
}

/** Runs `ds-doctor <argv>` in-process and captures its output. */
export async function dsDoctor(argv: string[]): Promise<DoctorRun> {
  const { io, output } = capturingIo({ env: { NO_COLOR: '1' } });
  const code = await main(argv, io);
  return { code, ...output(), argv };
}

/** Parses the JSON document of a run; throws with ds-doctor's stderr when there is none. */
export function doctorJson<T>(run: DoctorRun): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(
      `ds-doctor ${run.argv.join(' ')} exited ${run.code} without JSON: ${run.stderr.trim() || run.stdout.slice(0, 300)}`,
    );
  }
}

/** The kinds the dump holds, as a user would collect them for ds-doctor. */
export const DUMP_KINDS = 'nodes,daemonsets,pods,events,controllerrevisions,namespaces,resourcequotas,limitranges';

/** `kubectl get <kinds> -A -o yaml`, as text. */
export async function dumpCluster(cp: ControlPlane): Promise<string> {
  const r = await cp.kubectl(['get', DUMP_KINDS, '-A', '-o', 'yaml'], { timeoutMs: 60_000 });
  if (r.code !== 0) throw new Error(`kubectl get failed: ${r.stderr}`);
  return r.stdout;
}
