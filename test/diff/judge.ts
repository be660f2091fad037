/**
 * One judgement of a settled cluster: dump it with kubectl, ask ds-doctor (live and on the dump),
 * ask the real controller where it wants pods (probes), and compare per node.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import yaml from 'js-yaml';
import type { DaemonSet, KubeEvent, KubeObject, Pod } from '../../src/model/k8s-types.js';
import type { DaemonSetNodes } from '../../src/model/results.js';
import type { ControlPlane } from '../cluster/harness.js';
import type { Scope, World } from './cluster.js';
import {
  compareLiveFile,
  compareNodes,
  kubernetesTruth,
  type Disagreement,
  type NodeTruth,
  type ProbeResult,
} from './compare.js';
import { doctorJson, dsDoctor, dumpCluster } from './doctor.js';
import { runProbes } from './probes.js';

export interface RunContext {
  cp: ControlPlane;
  world: World;
  /** Where dumps are written for `-f` (scratch). */
  scratch: string;
  log: (line: string) => void;
}

/** A parsed `kubectl get -o yaml` dump. */
export interface Dump {
  text: string;
  file: string;
  objects: KubeObject[];
}

export async function takeDump(ctx: RunContext, name: string): Promise<Dump> {
  const text = await dumpCluster(ctx.cp);
  const file = path.join(ctx.scratch, `${name}.yaml`);
  await fs.writeFile(file, text);
  const doc = yaml.load(text) as { items?: KubeObject[] };
  return { text, file, objects: doc.items ?? [] };
}

export function dumpKind<T extends KubeObject>(d: Dump, kind: string, namespaces?: string[]): T[] {
  return d.objects.filter(
    (o) => o.kind === kind && (!namespaces || namespaces.includes(o.metadata?.namespace ?? '')),
  ) as T[];
}

export interface DoctorAnswers<T> {
  live: T;
  file: T;
}

/** `ds-doctor <command> <ns/name> -o json`, live and on the dump. */
export async function askDoctor<T>(
  ctx: RunContext,
  command: string,
  ds: DaemonSet,
  dump: Dump,
  extra: string[] = [],
): Promise<DoctorAnswers<T>> {
  const target = `${ds.metadata?.namespace}/${ds.metadata?.name}`;
  const live = doctorJson<T>(
    await dsDoctor([command, target, '-o', 'json', ...extra, '--kubeconfig', ctx.cp.kubeconfig]),
  );
  const file = doctorJson<T>(await dsDoctor([command, target, '-o', 'json', ...extra, '-f', dump.file]));
  return { live, file };
}

export interface NodeJudgement {
  truths: NodeTruth[];
  answers: Record<string, DoctorAnswers<DaemonSetNodes>>;
  disagreements: Disagreement[];
  probes: Record<string, { full: string[]; sel?: string[]; aff?: string[]; tol: string[] }>;
}

/**
 * Compares `ds-doctor nodes` with what Kubernetes did, for every DaemonSet in `namespaces`, on
 * the scope's nodes. The probes run after the dump and ds-doctor, so ds-doctor never sees them.
 */
export async function judgeNodes(
  ctx: RunContext,
  scope: Scope,
  dump: Dump,
  dsNamespaces: string[],
  probeNamespace: string,
): Promise<NodeJudgement> {
  const daemonSets = dumpKind<DaemonSet>(dump, 'DaemonSet', dsNamespaces).sort((a, b) =>
    `${a.metadata?.namespace}/${a.metadata?.name}`.localeCompare(`${b.metadata?.namespace}/${b.metadata?.name}`),
  );
  const pods = dumpKind<Pod>(dump, 'Pod', dsNamespaces);
  const events = dumpKind<KubeEvent>(dump, 'Event', dsNamespaces);
  const answers: Record<string, DoctorAnswers<DaemonSetNodes>> = {};
  for (const ds of daemonSets)
    answers[`${ds.metadata?.namespace}/${ds.metadata?.name}`] = await askDoctor<DaemonSetNodes>(ctx, 'nodes', ds, dump);
  const probes = await runProbes(ctx.world, probeNamespace, daemonSets);
  const truths: NodeTruth[] = [];
  const disagreements: Disagreement[] = [];
  const probeText: NodeJudgement['probes'] = {};
  for (const ds of daemonSets) {
    const key = `${ds.metadata?.namespace}/${ds.metadata?.name}`;
    const probe: ProbeResult = probes.get(key) ?? { full: new Set(), tol: new Set() };
    probeText[key] = {
      full: [...probe.full].sort(),
      tol: [...probe.tol].sort(),
      ...(probe.sel ? { sel: [...probe.sel].sort() } : {}),
      ...(probe.aff ? { aff: [...probe.aff].sort() } : {}),
    };
    const t = kubernetesTruth(ds, scope.nodes, pods, events, probe);
    truths.push(...t);
    disagreements.push(
      ...compareNodes(t, answers[key]!.live, 'live'),
      ...compareNodes(t, answers[key]!.file, 'file'),
      ...compareLiveFile(key, scope.nodes, answers[key]!.live, answers[key]!.file),
    );
  }
  return { truths, answers, disagreements, probes: probeText };
}
