/**
 * Reading the mechanical part of a printed fix, strictly. A fix is prose with commands in it
 * ("if the DaemonSet should run here: kubectl label node n1 pool=gpu; otherwise nothing to do",
 * "roll back: kubectl rollout undo daemonset/a -n ns --to-revision=1; then fix …"). Two forms are
 * mechanical:
 *
 * - a `kubectl` command with a mutating verb (patch, label, taint, cordon, uncordon, delete,
 *   annotate, rollout undo/restart) whose arguments all read as arguments: resource names, flags,
 *   `key=value` / `key-` / `key=value:Effect`, a JSON `-p` that parses. A command ends at `;`, at
 *   `,` after a word, at an unmatched `)`, at a word that opens `(` and at a `#` comment;
 * - a field edit of the DaemonSet the fix belongs to: `add to spec.….list: - {flow YAML}` or
 *   `set spec.….field to {flow YAML}`.
 *
 * Each mechanical action is one way to apply the fix on its own ("kubectl uncordon n1, or add to
 * spec.template.spec.tolerations: - {…}" offers two); the retry nudge (`kubectl annotate …
 * ds-doctor/retry-at="$(date +%s)"`, the one shell substitution evaluated) follows whichever is
 * chosen. Read-only commands (get, describe, logs, …) and `kubectl edit` are advice. A mutating
 * command with a `<placeholder>` is a template for the reader (advice); one that cannot be read
 * as a command at all is `unreadable`: the text pretends to be a command that is not one.
 */
import yaml from 'js-yaml';

export type FixAction =
  | { kind: 'kubectl'; args: string[]; text: string }
  | { kind: 'field'; op: 'add-to' | 'set'; path: string; value: unknown; text: string };

export interface ExtractedFix {
  /** Ways to apply the fix, each on its own. */
  alternatives: FixAction[];
  /** Applied after whichever alternative (the retry nudge). */
  followUps: FixAction[];
  /** Mutating commands with a placeholder for the reader to fill in. */
  templates: string[];
  /** Mutating commands that do not read as commands. */
  unreadable: { text: string; why: string }[];
}

const READ_ONLY = new Set([
  'get',
  'describe',
  'logs',
  'top',
  'explain',
  'auth',
  'api-resources',
  'version',
  'cluster-info',
  'events',
  'diff',
]);
/** Mutating, but interactive or needing a file: never mechanical. */
const INTERACTIVE = new Set(['edit', 'apply', 'replace', 'drain', 'exec', 'debug', 'create']);
const MUTATING = new Set([
  'patch',
  'label',
  'taint',
  'cordon',
  'uncordon',
  'delete',
  'annotate',
  'rollout',
  'scale',
  'set',
]);

const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
const RESOURCE_REF = /^[a-z]+(\.[a-z.]+)?\/[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
const FLAG = /^--?[a-z][a-z-]*(=\S*)?$/;
const KEY = '(?:[a-z0-9A-Z]([-a-z0-9A-Z_.]*[a-z0-9A-Z])?/)?[a-zA-Z0-9]([-a-zA-Z0-9_.]*[a-zA-Z0-9])?';
const LABEL_SET = new RegExp(`^${KEY}=[-A-Za-z0-9_.]*$`);
const LABEL_REMOVE = new RegExp(`^${KEY}-$`);
const ANNOTATION_SET = new RegExp(`^${KEY}=.*$`);
const TAINT = new RegExp(`^${KEY}(=[-A-Za-z0-9_.]*)?(:(NoSchedule|PreferNoSchedule|NoExecute))?-?$`);
/** The one shell substitution a printed command may carry (the retry nudge's timestamp). */
export const DATE_SUBSTITUTION = '$(date +%s)';

interface Read {
  tokens: string[];
  raw: string;
}

/** Reads the words of a command starting after `kubectl `; quotes are removed, their text kept whole. */
function readCommand(text: string, start: number): Read {
  const tokens: string[] = [];
  let i = start;
  let lastEnd = start;
  let stop = false;
  while (!stop && i < text.length) {
    while (text[i] === ' ') i++;
    if (i >= text.length) break;
    if (text[i] === ';') break;
    let token = '';
    let quote: string | undefined;
    const tokenStart = i;
    for (; i < text.length; i++) {
      const ch = text[i]!;
      if (quote) {
        if (ch === quote) quote = undefined;
        else token += ch;
        continue;
      }
      if (ch === "'" || ch === '"') {
        quote = ch;
        continue;
      }
      if (ch === ' ') break;
      if (ch === ';') {
        stop = true;
        break;
      }
      if (ch === ',' && (text[i + 1] === ' ' || i + 1 === text.length)) {
        stop = true;
        break;
      }
      if (ch === ')' && !token.includes('(')) {
        stop = true;
        break;
      }
      token += ch;
    }
    if (quote) {
      // An unclosed quote: keep what was read; the grammar will refuse it.
      tokens.push(`${text[tokenStart]}${token}`);
      break;
    }
    if (text[tokenStart] === '(' || token.startsWith('#')) break;
    // A sentence's full stop after the last word.
    if (token.endsWith('.') && (i >= text.length || text[i] === ' ') && text[tokenStart] !== "'")
      token = token.slice(0, -1);
    if (token) {
      tokens.push(token);
      lastEnd = i;
    }
  }
  return {
    tokens,
    raw: text
      .slice(start, lastEnd)
      .trim()
      .replace(/[.,;]$/, ''),
  };
}

function hasPlaceholder(tokens: string[]): boolean {
  return tokens.some((t) => /<[^>]+>/.test(t) || t === '…' || t === '...');
}

/** Why the words after `kubectl <verb>` are not a command of that verb; undefined when they are. */
function grammarError(tokens: string[]): string | undefined {
  const [verb, ...rest] = tokens;
  const positional: string[] = [];
  let patch: string | undefined;
  let type: string | undefined;
  let namespace: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const t = rest[i]!;
    if (t === '-p' || t === '--patch') {
      patch = rest[++i];
      if (patch === undefined) return `${t} without a value`;
      continue;
    }
    if (t === '--type') {
      type = rest[++i];
      continue;
    }
    if (t === '-n' || t === '--namespace') {
      namespace = rest[++i];
      if (!namespace || !NAME.test(namespace)) return `${t} without a namespace`;
      continue;
    }
    if (t.startsWith('-')) {
      if (!FLAG.test(t)) return `flag ${JSON.stringify(t)}`;
      if (t.startsWith('--type=')) type = t.slice(7);
      continue;
    }
    positional.push(t);
  }
  const sub = verb === 'rollout' ? positional.shift() : undefined;
  const isRef = (t: string) => RESOURCE_REF.test(t);
  switch (verb) {
    case 'rollout':
      if (sub !== 'undo' && sub !== 'restart') return `rollout ${sub ?? ''} is not a change`;
      if (positional.length !== 1 || !isRef(positional[0]!))
        return `rollout ${sub} wants one kind/name, got ${JSON.stringify(positional.join(' '))}`;
      return undefined;
    case 'patch': {
      const names = positional[0] && isRef(positional[0]) ? positional.slice(1) : positional.slice(2);
      if (
        !positional.length ||
        names.length ||
        (!isRef(positional[0]!) && !(positional[1] && NAME.test(positional[1])))
      )
        return `patch wants kind name or kind/name, got ${JSON.stringify(positional.join(' '))}`;
      if (patch === undefined) return 'patch without -p';
      if (type !== undefined && !['json', 'merge', 'strategic'].includes(type)) return `--type ${type}`;
      try {
        const v = JSON.parse(patch) as unknown;
        if (type === 'json' ? !Array.isArray(v) : typeof v !== 'object' || v === null || Array.isArray(v))
          return `the -p value is not a ${type === 'json' ? 'JSON patch' : 'patch object'}`;
      } catch {
        return `the -p value is not JSON: ${patch}`;
      }
      return undefined;
    }
    case 'label':
    case 'annotate': {
      const [first, ...more] = positional;
      if (!first) return `${verb} without an object`;
      const set = verb === 'label' ? LABEL_SET : ANNOTATION_SET;
      const pairs = more.filter((t) => t.includes('=') || t.endsWith('-'));
      const names = more.filter((t) => !pairs.includes(t));
      if (!pairs.length) return `${verb} without key=value`;
      const bad = pairs.find((p) => !(set.test(p) || LABEL_REMOVE.test(p)));
      if (bad) return `${verb} pair ${JSON.stringify(bad)}`;
      if (isRef(first)) return names.length ? `${verb} word ${JSON.stringify(names[0])}` : undefined;
      if (!NAME.test(first)) return `${verb} kind ${JSON.stringify(first)}`;
      if (!names.length && !rest.includes('--all')) return `${verb} without an object`;
      const odd = names.find((n) => !NAME.test(n));
      return odd ? `${verb} word ${JSON.stringify(odd)}` : undefined;
    }
    case 'taint': {
      if (positional[0] !== 'node' && positional[0] !== 'nodes') return 'taint wants node NAME';
      if (!positional[1] || !NAME.test(positional[1])) return 'taint without a node';
      if (positional.length < 3 || positional.slice(2).some((t) => !TAINT.test(t)))
        return `taint spec ${JSON.stringify(positional.slice(2).join(' '))}`;
      return undefined;
    }
    case 'cordon':
    case 'uncordon':
      if (positional.length !== 1 || !NAME.test(positional[0]!)) return `${verb} wants one node name`;
      return undefined;
    case 'delete': {
      const [kind, ...names] = positional;
      if (!kind || !/^(node|nodes|pod|pods|po|no|daemonset|ds)$/.test(kind))
        return `delete ${kind ?? ''}: not a kind the fixes name`;
      if (!names.length || names.some((n) => !NAME.test(n)))
        return `delete wants names, got ${JSON.stringify(names.join(' '))}`;
      return undefined;
    }
    default:
      return `kubectl ${verb} is not read as a mechanical change`;
  }
}

/** The JSON pointer of a dotted field path. */
export function pointerOf(path: string): string {
  return `/${path.split('.').join('/')}`;
}

/** The end (exclusive) of the flow collection opening at `start`, or -1. */
function flowEnd(text: string, start: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = start; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

const FIELD_EDIT = /\b(add to|set) (spec(?:\.[A-Za-z]+)+)(: - | to )(?=[{[])/g;

export function extractFix(fix: string): ExtractedFix {
  const out: ExtractedFix = { alternatives: [], followUps: [], templates: [], unreadable: [] };
  const seen = new Set<string>();
  const push = (a: FixAction, follow: boolean) => {
    const key = JSON.stringify(a.kind === 'kubectl' ? a.args : [a.op, a.path, a.value]);
    if (seen.has(key)) return;
    seen.add(key);
    (follow ? out.followUps : out.alternatives).push(a);
  };
  const actions: { at: number; action: FixAction; follow: boolean }[] = [];
  for (const m of fix.matchAll(/(^|[\s(:`])kubectl (?=[a-z])/g)) {
    const at = m.index + m[1]!.length;
    const { tokens, raw } = readCommand(fix, at + 'kubectl '.length);
    const verb = tokens[0] ?? '';
    const sub = verb === 'rollout' ? tokens[1] : undefined;
    if (READ_ONLY.has(verb) || (verb === 'rollout' && (sub === 'history' || sub === 'status'))) continue;
    if (INTERACTIVE.has(verb)) continue;
    if (!MUTATING.has(verb)) continue;
    // "kubectl rollout undo would fail with …": the text says what the command would do.
    if (tokens.includes('would')) continue;
    if (hasPlaceholder(tokens)) {
      out.templates.push(`kubectl ${raw}`);
      continue;
    }
    const why = grammarError(tokens);
    if (why) {
      out.unreadable.push({ text: `kubectl ${raw}`, why });
      continue;
    }
    const follow = verb === 'annotate' && tokens.some((t) => t.startsWith('ds-doctor/retry-at='));
    actions.push({ at, action: { kind: 'kubectl', args: tokens, text: `kubectl ${raw}` }, follow });
  }
  for (const m of fix.matchAll(FIELD_EDIT)) {
    const start = m.index + m[0].length;
    const end = flowEnd(fix, start);
    const flow = end < 0 ? '' : fix.slice(start, end);
    let value: unknown;
    try {
      value = end < 0 ? undefined : yaml.load(flow);
    } catch {
      value = undefined;
    }
    if (value === undefined || value === null || typeof value !== 'object') {
      out.unreadable.push({
        text: fix.slice(m.index, end < 0 ? undefined : end),
        why: 'the value is not a YAML flow collection',
      });
      continue;
    }
    const op = m[1] === 'add to' ? 'add-to' : 'set';
    actions.push({
      at: m.index,
      action: { kind: 'field', op, path: m[2]!, value, text: `${m[1]} ${m[2]}${m[3]}${flow}` },
      follow: false,
    });
  }
  for (const a of actions.sort((x, y) => x.at - y.at)) push(a.action, a.follow);
  return out;
}

/** The arguments to run, with the timestamp substitution evaluated. */
export function commandArgs(a: Extract<FixAction, { kind: 'kubectl' }>, now = new Date()): string[] {
  return a.args.map((t) => t.split(DATE_SUBSTITUTION).join(String(Math.floor(now.getTime() / 1000))));
}
