/** Finding the objects a command names, within the namespace scope of the flags. */
import type { DaemonSet, Node } from '../model/k8s-types.js';
import { InputError } from '../model/errors.js';
import type { ClusterSnapshot } from '../model/snapshot.js';
import type { GlobalOptions } from './options.js';
import { didYouMean } from './suggest.js';
import { emptyListNote, judgeAbsentKinds, type NeededKind } from '../analyze/input-evidence.js';

/** Human description of the namespace scope. */
export function scopeText(opts: GlobalOptions, defaultNamespace?: string): string {
  if (opts.allNamespaces) return 'all namespaces';
  if (opts.namespace) return `namespace ${opts.namespace}`;
  if (defaultNamespace) return `namespace ${defaultNamespace}`;
  return 'all namespaces in the input';
}

/**
 * The DaemonSets in scope: -A → all; -n → that namespace; from files without -n → every
 * namespace in the input (the dump defines the scope); live without -n → `defaultNamespace`.
 */
export function daemonSetsInScope(snapshot: ClusterSnapshot, opts: GlobalOptions, defaultNamespace?: string): DaemonSet[] {
  const ns = opts.allNamespaces ? undefined : opts.namespace ?? defaultNamespace;
  return snapshot.daemonSets
    .filter((ds) => ns === undefined || ds.metadata?.namespace === ns)
    .sort((a, b) =>
      (a.metadata?.namespace ?? '').localeCompare(b.metadata?.namespace ?? '') ||
      (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
}

/**
 * Resolves `name` or `namespace/name` (also `daemonset/name`, `ds/name`) to one DaemonSet.
 * Without -n, a name that is unique across the input's namespaces is accepted.
 */
export function resolveDaemonSet(snapshot: ClusterSnapshot, arg: string, opts: GlobalOptions, defaultNamespace?: string): DaemonSet {
  let name = arg.replace(/^(daemonsets?|ds|daemonset\.apps)\//i, '');
  let ns = opts.namespace;
  if (name.includes('/')) {
    const [a, b] = name.split('/', 2) as [string, string];
    ns = a;
    name = b;
  }
  if (ns === undefined && !opts.allNamespaces) ns = defaultNamespace;
  const matches = snapshot.daemonSets.filter((ds) => ds.metadata?.name === name && (ns === undefined || ds.metadata?.namespace === ns));
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    const where = matches.map((d) => d.metadata?.namespace).sort().join(', ');
    throw new InputError(`daemonset "${name}" exists in several namespaces (${where}): pass -n <namespace> or <namespace>/${name}`);
  }
  const candidates = snapshot.daemonSets
    .filter((ds) => ns === undefined || ds.metadata?.namespace === ns)
    .map((ds) => ds.metadata?.name ?? '');
  const elsewhere = snapshot.daemonSets.filter((ds) => ds.metadata?.name === name).map((ds) => ds.metadata?.namespace);
  const hint = elsewhere.length ? ` (it exists in namespace ${elsewhere.join(', ')}: use -n)` : didYouMean(name, candidates);
  const where = ns ? ` in namespace "${ns}"` : '';
  throw new InputError(`daemonset "${name}" not found${where}${hint}`);
}

/** Resolves a node name (also `node/name`), with a suggestion when it is unknown. */
export function resolveNode(snapshot: ClusterSnapshot, arg: string): Node {
  const name = arg.replace(/^(nodes?|no)\//i, '');
  const node = snapshot.nodes.find((n) => n.metadata?.name === name);
  if (node) return node;
  if (snapshot.missing.some((m) => m.kind === 'Node')) {
    throw new InputError(`node "${name}" not found: the input has no Node objects (dump nodes with: kubectl get nodes -o yaml)`);
  }
  throw new InputError(`node "${name}" not found${didYouMean(name, snapshot.nodes.map((n) => n.metadata?.name ?? ''))}`);
}

/**
 * Refuses to answer from an input that lacks the kinds a command cannot do without, unless the
 * DaemonSets' status shows they were collected with none (see judgeAbsentKinds): those kinds are
 * then taken as present and empty, with a note. A bare manifest has no status, so it is refused
 * ("0/0 nodes healthy" would be a wrong answer). A kind collected as an empty list gets a note.
 */
export function requireKinds(snapshot: ClusterSnapshot, command: string, kinds: NeededKind[], daemonSets: DaemonSet[]): void {
  const absent = kinds.filter((k) => snapshot.missing.some((m) => m.kind === k && m.reason === 'absent'));
  for (const kind of kinds) {
    const collectedEmpty = !absent.includes(kind) && !snapshot.missing.some((m) => m.kind === kind) && !(kind === 'Pod' ? snapshot.pods : snapshot.nodes).length;
    if (collectedEmpty && snapshot.source === 'files') snapshot.warnings.push(emptyListNote(kind, daemonSets));
  }
  if (!absent.length) return;
  const judgement = judgeAbsentKinds(absent, daemonSets, command);
  if (judgement.refusal) throw new InputError(judgement.refusal);
  for (const { kind, note } of judgement.accepted) {
    snapshot.missing = snapshot.missing.filter((m) => m.kind !== kind);
    snapshot.warnings.push(note);
  }
}
