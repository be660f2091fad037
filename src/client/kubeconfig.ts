/**
 * Kubeconfig loading, as client-go's clientcmd loading rules do it
 * (tools/clientcmd/loader.go#ClientConfigLoadingRules.Load): `--kubeconfig`, else the files of
 * the KUBECONFIG list merged (the first file to define a name wins, missing files are skipped),
 * else ~/.kube/config. The files are read by @kubernetes/client-node; each cluster and user entry
 * keeps the file it came from and its raw fields, for the checks (kubeconfig-check.ts) and the
 * fields client-node drops (kubeconfig-overrides.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import yaml from 'js-yaml';
import { KubeConfig, type Cluster, type Context, type User } from '@kubernetes/client-node';
import { ClusterError } from '../model/errors.js';

/** A loaded kubeconfig and, for each cluster and user name, the file that defined it. */
export interface LoadedKubeconfig {
  kc: KubeConfig;
  /** The files read, in order (kubectl logs them at -v=6). */
  files: string[];
  /** The KUBECONFIG list when none of its files exists (client-go then starts from an empty config). */
  missing?: string;
  /** Where a cluster or user entry came from, and its raw fields (for what client-node drops). */
  origin(section: 'clusters' | 'users', name: string): { file: string; raw: Record<string, unknown> } | undefined;
}

type Origins = Map<string, { file: string; raw: Record<string, unknown> }>;

/** Records, for each named entry of one file's section, the file and the raw entry (first file wins). */
function recordOrigins(origins: Origins, section: string, file: string): void {
  let doc: unknown;
  try {
    doc = yaml.load(readFileSync(file, 'utf8'));
  } catch {
    return; // client-node has already reported a file it cannot parse
  }
  const entries = (doc as Record<string, unknown> | null)?.[section];
  if (!Array.isArray(entries)) return;
  const key = section === 'clusters' ? 'cluster' : 'user';
  for (const e of entries as Record<string, unknown>[]) {
    const name = e?.['name'];
    const raw = e?.[key];
    if (typeof name !== 'string' || origins.has(name)) continue;
    origins.set(name, { file, raw: raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {} });
  }
}

/**
 * Loads the files of a KUBECONFIG list with kubectl's merge rules: missing files are skipped,
 * the first file to define a cluster, user or context name wins, and so does the first
 * current-context. (client-node's own merge throws on a repeated name and lets a later file's
 * current-context win.)
 */
function mergeKubeconfigFiles(present: string[]): KubeConfig {
  const clusters: Cluster[] = [];
  const users: User[] = [];
  const contexts: Context[] = [];
  let currentContext = '';
  for (const file of present) {
    const kc = new KubeConfig();
    kc.loadFromFile(file);
    for (const c of kc.clusters) if (!clusters.some((x) => x.name === c.name)) clusters.push(c);
    for (const u of kc.users) if (!users.some((x) => x.name === u.name)) users.push(u);
    for (const c of kc.contexts) if (!contexts.some((x) => x.name === c.name)) contexts.push(c);
    if (!currentContext && kc.currentContext) currentContext = kc.currentContext;
  }
  const merged = new KubeConfig();
  merged.loadFromOptions({ clusters, users, contexts, currentContext });
  return merged;
}

/** The first line of a load error, without the source excerpt js-yaml adds (it may hold a secret). */
function loadErrorReason(err: unknown): string {
  const e = err as { reason?: string; mark?: { line: number }; message?: string };
  if (e?.reason && e.mark) return `invalid YAML: ${e.reason} (line ${e.mark.line + 1})`;
  return String(e?.message ?? err).split('\n')[0]!;
}

/**
 * Loads `--kubeconfig`, else the KUBECONFIG list, else ~/.kube/config (client-node's default,
 * which also covers in-cluster service accounts). Failures are exit 3, as before.
 */
export function loadKubeconfig(opts: { kubeconfig?: string; kubeconfigEnv?: string }): LoadedKubeconfig {
  let kc = new KubeConfig();
  let files: string[] = [];
  let missing: string | undefined;
  try {
    if (opts.kubeconfig) {
      files = [opts.kubeconfig];
      kc.loadFromFile(opts.kubeconfig);
    } else if (opts.kubeconfigEnv) {
      files = opts.kubeconfigEnv.split(delimiter).filter((f) => f !== '' && existsSync(f));
      // As client-go's loading rules: missing files of the list are skipped, and with none left the
      // configuration is empty (enough with --server and --token); resolveConfig says so otherwise.
      if (files.length) kc = mergeKubeconfigFiles(files);
      else missing = opts.kubeconfigEnv;
    } else {
      kc.loadFromDefault();
      const home = join(homedir(), '.kube', 'config');
      if (existsSync(home)) files = [home];
    }
  } catch (err) {
    throw new ClusterError(
      `cannot load kubeconfig${opts.kubeconfig ? ` ${opts.kubeconfig}` : ''}: ${loadErrorReason(err)}`,
    );
  }
  const origins = { clusters: new Map() as Origins, users: new Map() as Origins };
  for (const file of files)
    for (const section of ['clusters', 'users'] as const) recordOrigins(origins[section], section, file);
  return {
    kc,
    files,
    ...(missing !== undefined ? { missing } : {}),
    origin: (section, name) => origins[section].get(name),
  };
}
