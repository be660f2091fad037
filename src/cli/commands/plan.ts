/**
 * `plan -f CHANGE.yaml`: what applying a DaemonSet manifest does, node by node, against the live
 * cluster or a dump (--cluster-dump). Here -f is the manifest to apply, as for `kubectl apply -f`.
 */
import type { Command } from 'commander';
import type { DaemonSet } from '../../model/k8s-types.js';
import type { ClusterSnapshot } from '../../model/snapshot.js';
import type { PlanReport } from '../../model/results.js';
import { InputError } from '../../model/errors.js';
import { exitFor } from '../exit-code.js';
import { requireKinds } from '../scope.js';
import { checkNamespace } from '../names.js';
import { didYouMean } from '../../model/suggest.js';
import type { CommandContext } from '../context.js';
import type { CommandSpec } from './spec.js';

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** A label key as the API server checks one: an optional DNS subdomain prefix and a name of at most 63 characters. */
const LABEL_NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Checks --group-by: a valid label key, carried by at least one node. */
export function checkGroupBy(label: string, snapshot: ClusterSnapshot): void {
  const slash = label.lastIndexOf('/');
  const prefix = slash >= 0 ? label.slice(0, slash) : '';
  const name = slash >= 0 ? label.slice(slash + 1) : label;
  if (!LABEL_NAME.test(name) || (slash >= 0 && (!DNS_SUBDOMAIN.test(prefix) || prefix.length > 253))) {
    throw new InputError(
      `--group-by: "${label}" is not a valid label key (an optional DNS subdomain prefix and "/", then a name of up to 63 letters, digits, '-', '_' or '.')`,
    );
  }
  if (!snapshot.nodes.length || snapshot.nodes.some((n) => n.metadata?.labels?.[label] !== undefined)) return;
  const keys = snapshot.nodes.flatMap((n) => Object.keys(n.metadata?.labels ?? {}));
  throw new InputError(`--group-by: no node carries the label "${label}"${didYouMean(label, keys)}`);
}

/** The DaemonSets of the manifest files; a file set with none is an input error naming the files. */
async function manifestDaemonSets(ctx: CommandContext): Promise<DaemonSet[]> {
  const files = ctx.opts.filenames;
  if (!files.length)
    throw new InputError('plan needs -f/--filename: the DaemonSet manifest to apply (as kubectl apply -f takes it)');
  const { loadFiles } = await import('../../load/files.js');
  const manifest = await loadFiles(files, ctx.io.readStdin);
  if (!manifest.daemonSets.length) {
    throw new InputError(
      `${files.join(', ')}: no DaemonSet in the manifest (plan takes the DaemonSet to apply; the cluster state goes in --cluster-dump)`,
    );
  }
  for (const w of manifest.warnings) ctx.note(`note: ${w}`);
  return manifest.daemonSets;
}

/** The namespace a manifest's DaemonSet lands in: its own, else -n, else the context's (or default). */
function withNamespace(ds: DaemonSet, flag: string | undefined, contextNamespace: string | undefined): DaemonSet {
  if (ds.metadata?.namespace) {
    // As kubectl apply: a manifest's namespace that contradicts -n is an error.
    if (flag && ds.metadata.namespace !== flag) {
      throw new InputError(
        `daemonset "${ds.metadata.name}": the namespace from the manifest (${ds.metadata.namespace}) does not match the namespace from -n (${flag})`,
      );
    }
    return ds;
  }
  return { ...ds, metadata: { ...ds.metadata, namespace: flag ?? contextNamespace ?? 'default' } };
}

export const planCommand: CommandSpec = {
  usage: 'plan',
  description:
    "What happens if a DaemonSet manifest is applied: per node gain, lose, keep or replace, the new pod's fit, the rollout and the template diff",
  examples: [
    'ds-doctor plan -f fixtures/plan/fluent-bit-memory.yaml --cluster-dump fixtures/demo',
    'ds-doctor plan -f calico.yaml --group-by topology.kubernetes.io/zone      # against the live cluster',
    'ds-doctor plan -f ds.yaml --cluster-dump dump/ -o markdown   # a pull-request comment; exit 1 when nodes are lost or pods stay Pending',
  ],
  options: (cmd: Command) => {
    const filename = cmd.options.find((o) => o.long === '--filename');
    if (filename)
      filename.description =
        'the DaemonSet manifest to apply, as kubectl apply -f takes it (file, directory or -; repeatable)';
    cmd.option(
      '--cluster-dump <path>',
      'read the cluster state from a dump instead of the live cluster (file, directory or -; repeatable; every form -f takes in other commands)',
      collect,
      [],
    );
    cmd.option(
      '--group-by <label>',
      'node label to group nodes by (default: the first present of the common pool labels)',
    );
  },
  async run(ctx, _args, raw) {
    const [{ SnapshotIndex }, { planDaemonSet, applyRefusal }, { renderPlan }, { commandContext }] = await Promise.all([
      import('../../model/snapshot-index.js'),
      import('../../analyze/plan/index.js'),
      import('../../render/plan.js'),
      import('../context.js'),
    ]);
    const dumps = (raw['clusterDump'] as string[] | undefined) ?? [];
    const groupBy = raw['groupBy'] as string | undefined;
    if (dumps.includes('-') && ctx.opts.filenames.includes('-'))
      throw new InputError('-f - and --cluster-dump - both read stdin: give one of them a file');
    const manifests = await manifestDaemonSets(ctx);
    // The cluster: the dump through the same loader as -f elsewhere (read once), or the live
    // cluster (read per DaemonSet: its revisions, and whether it exists, are its own).
    const clusterCtx = commandContext({ ...ctx.opts, filenames: dumps }, ctx.io);
    const loads = dumps.length ? [manifests] : manifests.map((ds) => [ds]);
    const reports: PlanReport[] = [];
    for (const group of loads) {
      const first = group[0]!;
      const ns = first.metadata?.namespace ?? ctx.opts.namespace;
      if (ns) checkNamespace(`daemonset "${first.metadata?.name}": namespace`, ns);
      const { snapshot, defaultNamespace } = await clusterCtx.load({
        daemonSet: ns ? `${ns}/${first.metadata?.name ?? ''}` : (first.metadata?.name ?? ''),
        daemonSetOptional: true,
        everyPod: true,
        allPods: true,
        kinds: ['ControllerRevision', 'PriorityClass', 'Namespace', 'ResourceQuota', 'LimitRange'],
      });
      const targets = group.map((ds) => withNamespace(ds, ctx.opts.namespace, defaultNamespace));
      requireKinds(snapshot, 'plan', ['Node', 'Pod'], targets);
      if (groupBy !== undefined) checkGroupBy(groupBy, snapshot);
      for (const w of snapshot.warnings) ctx.note(`note: ${w}`);
      const index = new SnapshotIndex(snapshot);
      for (const ds of targets) {
        const refusal = applyRefusal(ds, index.daemonSetsByKey.get(`${ds.metadata?.namespace}/${ds.metadata?.name}`));
        if (refusal) throw new InputError(`the API server would refuse the manifest: ${refusal}`);
      }
      for (const ds of targets)
        reports.push(planDaemonSet(index, ds, clusterCtx.opts.now, groupBy !== undefined ? { groupBy } : {}));
    }
    const doc =
      reports.length === 1
        ? reports[0]!
        : { apiVersion: reports[0]!.apiVersion, kind: 'PlanReportList' as const, items: reports };
    ctx.emit(doc, (d, r, md) => ('items' in d ? d.items : [d]).map((p) => renderPlan(p, r, md)).join('\n'));
    const severities = reports.flatMap((p) => p.findings.map((f) => f.severity));
    return exitFor(ctx.opts, { error: severities.includes('error'), warning: severities.includes('warning') });
  },
};
