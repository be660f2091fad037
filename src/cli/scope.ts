/** Finding the objects a command names, within the namespace scope of the flags. */
import type { DaemonSet, Node } from '../model/k8s-types.js';
import { InputError } from '../model/errors.js';
import type { ClusterSnapshot } from '../model/snapshot.js';
import type { GlobalOptions } from './options.js';
import { didYouMean } from '../model/suggest.js';
import { emptyListNote, judgeAbsentKinds, type NeededKind } from '../analyze/input-evidence.js';
import { isDNS1123Subdomain } from '../k8s/names.js';
import { checkNamespace, invalidName } from './names.js';
import { compareText } from '../model/order.js';

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
export function daemonSetsInScope(
  snapshot: ClusterSnapshot,
  opts: Pick<GlobalOptions, 'allNamespaces' | 'namespace'>,
  defaultNamespace?: string,
): DaemonSet[] {
  const ns = opts.allNamespaces ? undefined : (opts.namespace ?? defaultNamespace);
  return snapshot.daemonSets
    .filter((ds) => ns === undefined || ds.metadata?.namespace === ns)
    .sort(
      (a, b) =>
        compareText(a.metadata?.namespace ?? '', b.metadata?.namespace ?? '') ||
        compareText(a.metadata?.name ?? '', b.metadata?.name ?? ''),
    );
}

const DAEMONSET_PREFIX = /^(daemonsets?|ds|daemonset\.apps)\//i;
const NODE_PREFIX = /^(nodes?|no)\//i;

/** `name`, `namespace/name` or `daemonset/name` split into its parts, each checked as the API server checks them. */
export function parseDaemonSetArg(arg: string): { namespace?: string; name: string } {
  const parts = arg.replace(DAEMONSET_PREFIX, '').split('/');
  if (parts.length > 2) throw new InputError(`daemonset "${arg}": expected <name> or <namespace>/<name>`);
  const name = parts[parts.length - 1]!;
  const errs = isDNS1123Subdomain(name);
  if (errs.length) throw invalidName(`daemonset "${arg}"`, name, 'DaemonSet', errs);
  if (parts.length === 1) return { name };
  checkNamespace(`daemonset "${arg}"`, parts[0]!);
  return { namespace: parts[0]!, name };
}

/** A node argument (`name` or `node/name`), checked as the API server checks node names. */
export function parseNodeArg(arg: string): string {
  const name = arg.replace(NODE_PREFIX, '');
  const errs = isDNS1123Subdomain(name);
  if (errs.length) throw invalidName(`node "${arg}"`, name, 'node', errs);
  return name;
}

/**
 * Checks the positional arguments a command's usage names (`<daemonset>`, `[node]`), before
 * anything is loaded: a name goes into an API path.
 */
export function checkTargetArgs(usage: string, args: string[]): void {
  const names = [...usage.matchAll(/[<[](\w+)[>\]]/g)].map((m) => m[1]);
  names.forEach((what, i) => {
    const arg = args[i];
    if (arg === undefined) return;
    if (what === 'daemonset') parseDaemonSetArg(arg);
    if (what === 'node') parseNodeArg(arg);
  });
}

/**
 * Resolves `name` or `namespace/name` (also `daemonset/name`, `ds/name`) to one DaemonSet.
 * Without -n, a name that is unique across the input's namespaces is accepted.
 */
export function resolveDaemonSet(
  snapshot: ClusterSnapshot,
  arg: string,
  opts: GlobalOptions,
  defaultNamespace?: string,
): DaemonSet {
  const parsed = parseDaemonSetArg(arg);
  const name = parsed.name;
  let ns = parsed.namespace ?? opts.namespace;
  if (ns === undefined && !opts.allNamespaces) ns = defaultNamespace;
  const matches = snapshot.daemonSets.filter(
    (ds) => ds.metadata?.name === name && (ns === undefined || ds.metadata?.namespace === ns),
  );
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    const where = matches
      .map((d) => d.metadata?.namespace)
      .sort()
      .join(', ');
    throw new InputError(
      `daemonset "${name}" exists in several namespaces (${where}): pass -n <namespace> or <namespace>/${name}`,
    );
  }
  const candidates = snapshot.daemonSets
    .filter((ds) => ns === undefined || ds.metadata?.namespace === ns)
    .map((ds) => ds.metadata?.name ?? '');
  const elsewhere = snapshot.daemonSets.filter((ds) => ds.metadata?.name === name).map((ds) => ds.metadata?.namespace);
  const hint = elsewhere.length
    ? ` (it exists in namespace ${elsewhere.join(', ')}: use -n)`
    : didYouMean(name, candidates);
  const where = ns ? ` in namespace "${ns}"` : '';
  throw new InputError(`daemonset "${name}" not found${where}${hint}`);
}

/** Resolves a node name (also `node/name`), with a suggestion when it is unknown. */
export function resolveNode(snapshot: ClusterSnapshot, arg: string): Node {
  const name = parseNodeArg(arg);
  const node = snapshot.nodes.find((n) => n.metadata?.name === name);
  if (node) return node;
  if (snapshot.missing.some((m) => m.kind === 'Node')) {
    throw new InputError(
      `node "${name}" not found: the input has no Node objects (dump nodes with: kubectl get nodes -o yaml)`,
    );
  }
  throw new InputError(
    `node "${name}" not found${didYouMean(
      name,
      snapshot.nodes.map((n) => n.metadata?.name ?? ''),
    )}`,
  );
}

/**
 * Refuses to answer from an input that lacks the kinds a command cannot do without, unless the
 * DaemonSets' status shows they were collected with none (see judgeAbsentKinds): those kinds are
 * then taken as present and empty, with a note. A bare manifest has no status, so it is refused
 * ("0/0 nodes healthy" would be a wrong answer). A kind collected as an empty list gets a note.
 */
export function requireKinds(
  snapshot: ClusterSnapshot,
  command: string,
  kinds: NeededKind[],
  daemonSets: DaemonSet[],
): void {
  const absent = kinds.filter((k) => snapshot.missing.some((m) => m.kind === k && m.reason === 'absent'));
  for (const kind of kinds) {
    const collectedEmpty =
      !absent.includes(kind) &&
      !snapshot.missing.some((m) => m.kind === kind) &&
      !(kind === 'Pod' ? snapshot.pods : snapshot.nodes).length;
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
