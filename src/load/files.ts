/**
 * Loads a ClusterSnapshot from files: multi-document YAML, JSON, `kind: List` and `*List`,
 * directories (recursive), `-` for stdin, and `kubectl cluster-info dump --output-directory`.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { KubeObject } from '../model/k8s-types.js';
import { InputError } from '../model/errors.js';
import { emptySnapshot, SNAPSHOT_KINDS, type ClusterSnapshot, type SnapshotKind } from '../model/snapshot.js';
import { parseText, type ParsedDocument } from './parse.js';
import { addObject, finishSnapshot } from './normalize.js';

const DATA_FILE = /\.(ya?ml|json)$/i;

/** Reads standard input to the end. */
export type StdinReader = () => Promise<string>;

async function listDirectory(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    throw new InputError(`${dir}: cannot read directory: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const files: string[] = [];
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, e.name);
    if (e.isDirectory()) files.push(...(await listDirectory(path)));
    else if (e.isFile() && DATA_FILE.test(e.name)) files.push(path);
  }
  return files;
}

/** Expands each path: a file as is, a directory into its data files, `-` stays stdin. */
async function expandPaths(paths: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    if (p === '-') {
      out.push(p);
      continue;
    }
    let st;
    try {
      st = await stat(p);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new InputError(code === 'ENOENT' ? `${p}: no such file or directory` : `${p}: cannot read: ${code}`);
    }
    if (st.isDirectory()) {
      const files = await listDirectory(p);
      if (files.length === 0) throw new InputError(`${p}: directory has no .yaml, .yml or .json files`);
      out.push(...files);
    } else {
      out.push(p);
    }
  }
  return out;
}

async function readSource(path: string, readStdin: StdinReader): Promise<string> {
  if (path === '-') return readStdin();
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new InputError(`${path}: cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** Adds one parsed document (an object or a List of objects) to the snapshot. */
function addDocument(snapshot: ClusterSnapshot, doc: ParsedDocument, file: string, seen: Set<SnapshotKind>, ignored: Map<string, number>): void {
  const value = doc.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InputError(`${file}:${doc.line}: expected a Kubernetes object, found ${Array.isArray(value) ? 'a list' : typeof value}`);
  }
  const obj = value as KubeObject;
  const kind = obj.kind;
  if (typeof kind !== 'string' || kind === '') {
    throw new InputError(`${file}:${doc.line}: document has no "kind"`);
  }
  if (kind.endsWith('List') && Array.isArray(obj['items'])) {
    const itemKind = kind === 'List' ? undefined : kind.slice(0, -'List'.length);
    if (itemKind && itemKind in SNAPSHOT_KINDS) seen.add(itemKind as SnapshotKind);
    for (const item of obj['items'] as unknown[]) {
      if (typeof item !== 'object' || item === null) {
        throw new InputError(`${file}:${doc.line}: ${kind} has an item that is not an object`);
      }
      const it = item as KubeObject;
      if (!it.kind && itemKind) it.kind = itemKind;
      addDocument(snapshot, { value: it, line: doc.line }, file, seen, ignored);
    }
    return;
  }
  if (!addObject(snapshot, obj, { file, line: doc.line })) {
    ignored.set(kind, (ignored.get(kind) ?? 0) + 1);
    return;
  }
  seen.add(kind as SnapshotKind);
}

/**
 * Loads every path into one snapshot. Kinds that appear nowhere (not even as an empty list)
 * are recorded as missing, so analyses can say what they could not see.
 */
export async function loadFiles(paths: string[], readStdin: StdinReader): Promise<ClusterSnapshot> {
  const files = await expandPaths(paths);
  const snapshot = emptySnapshot('files');
  const seen = new Set<SnapshotKind>();
  const ignored = new Map<string, number>();
  let objects = 0;
  for (const file of files) {
    const name = file === '-' ? '<stdin>' : file;
    const text = await readSource(file, readStdin);
    for (const doc of parseText(text, name)) {
      addDocument(snapshot, doc, name, seen, ignored);
      objects++;
    }
  }
  if (objects === 0) {
    throw new InputError(`${paths.join(', ')}: no Kubernetes objects found`);
  }
  if (ignored.size) {
    const total = [...ignored.values()].reduce((a, b) => a + b, 0);
    const kinds = [...ignored.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k} (${n})`).join(', ');
    snapshot.warnings.push(`ignored ${total} object(s) of kinds ds-doctor does not use: ${kinds}`);
  }
  for (const kind of Object.keys(SNAPSHOT_KINDS) as SnapshotKind[]) {
    if (!seen.has(kind)) snapshot.missing.push({ kind, reason: 'absent' });
  }
  finishSnapshot(snapshot);
  return snapshot;
}
