// Types for controlplane.mjs (plain ESM, imported by the TypeScript cluster tests).

export interface StartControlPlaneOptions {
  /** Directory with etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kubectl (build.sh prints it). */
  binDir: string;
  /** Created if missing; holds etcd data, serving certs, tokens, logs/, kubeconfig, state.json. */
  workDir: string;
  /** Log every API request at Metadata level, one JSON object per line, to `<workDir>/audit.log`. */
  auditLog?: boolean;
  /** Remove the files an earlier run left in workDir (only names this module creates). Default false: fail instead. */
  reset?: boolean;
  /** Per-component readiness timeout in ms (default 120000). */
  timeoutMs?: number;
  /** Controllers to run besides daemonset-, garbage-collector- and namespace-controller. */
  extraControllers?: string[];
  /**
   * Admission plugins to leave on that are disabled by default here (`ServiceAccount`,
   * `TaintNodesByCondition`); they are also passed to `--enable-admission-plugins`.
   * Turn `TaintNodesByCondition` on only together with `node-lifecycle-controller`, which
   * removes the not-ready taint it puts on every new Node.
   */
  enableAdmissionPlugins?: string[];
  /** Extra kube-controller-manager flags, e.g. `--node-monitor-grace-period=4s`. */
  controllerManagerArgs?: string[];
  /** Keep the processes running after this Node process exits (used by the CLI `up`). Default false. */
  keepAlive?: boolean;
  /** Progress messages; silent by default. */
  log?: (msg: string) => void;
}

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface KubectlOptions {
  /** Written to kubectl's stdin (e.g. for `create -f -`). */
  input?: string;
  /** kubeconfig context: "admin" (default) or "reader". */
  context?: string;
  /** Kill kubectl after this many ms (default 60000). */
  timeoutMs?: number;
}

export interface ControlPlane {
  /** Path of a kubeconfig with contexts `admin` (current, system:masters) and `reader` (no groups, no RBAC). */
  kubeconfig: string;
  /** https://127.0.0.1:<port> */
  server: string;
  /** Bearer token of the admin user (group system:masters). */
  token: string;
  /** Bearer token of the user `reader` (no groups, so only what RBAC grants to system:authenticated). */
  readerToken: string;
  /** PEM bundle (serving cert + its CA) to trust for `server`; also embedded in the kubeconfig. */
  ca: string;
  /** `<workDir>/audit.log` when auditLog was set, else null. */
  auditLogPath: string | null;
  workDir: string;
  binDir: string;
  /** One `<component>.log` per process. */
  logDir: string;
  timings: { etcdMs: number; apiserverMs: number; controllerManagerMs: number; schedulerMs: number; totalMs: number };
  ports: { etcd: number; etcdPeer: number; apiserver: number; controllerManager: number; scheduler: number };
  processes: { name: string; pid: number; log: string }[];
  /** `{ KUBECONFIG }`, to spread into a child process environment. */
  env: { KUBECONFIG: string };
  /** Run the built kubectl against this control plane. Never rejects on a non-zero exit code. */
  kubectl(args: string[], opts?: KubectlOptions): Promise<KubectlResult>;
  /**
   * Stops kube-apiserver (SIGTERM, then SIGKILL after 5 s), waits `downMs`, and starts it again
   * with the same flags, port, certificates and etcd; resolves when it is ready. Its log goes on in
   * the same file. Watches and connections of clients break, as in a real restart.
   */
  restartApiServer(downMs?: number): Promise<void>;
  /** Stop every process this control plane started (idempotent). Removes no files. */
  stop(): Promise<void>;
}

export function startControlPlane(options: StartControlPlaneOptions): Promise<ControlPlane>;

/** Stop the processes recorded in `<workDir>/state.json`; returns the names stopped. */
export function stopRecorded(workDir: string): Promise<string[]>;

/** Run test/cluster/build.sh (cached after the first build) and return the binary directory. */
export function ensureBinaries(): Promise<string>;
