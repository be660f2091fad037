/**
 * The -f paths expanded into the files to read: a file as is, a directory walked for its data
 * files as `kubectl apply -f DIR -R` walks it (symbolic links followed, loops reported), `-`
 * kept for stdin. The files are then read by src/load/files.ts.
 */
import { lstat, readdir, readlink, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '../model/errors.js';
import { compareText } from '../model/order.js';

const DATA_FILE = /\.(ya?ml|json)$/i;

/** A file to read, and whether it was found in a directory (rather than named by the user). */
interface Source {
  path: string;
  inDirectory: boolean;
}

/** What expanding the -f paths found: the data files in order, and what to tell the user. */
interface Expanded {
  files: Source[];
  warnings: string[];
}

function codeOf(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
}

async function linkTarget(path: string): Promise<string> {
  try {
    return await readlink(path);
  } catch {
    return '?';
  }
}

/**
 * Walks a directory as `kubectl apply -f DIR -R` does (k8s.io/cli-runtime
 * pkg/resource/visitor.go#ExpandPathsToFileVisitors: data files by extension, in name order),
 * and follows symbolic links, where kubectl's filepath.Walk reads a linked file but silently
 * skips a linked directory: a linked directory is walked too, a link back to a directory being
 * walked (a loop) is reported once as a warning and not followed, and a link whose target is
 * missing is an error naming it. `ancestors` are the real paths of the directories being walked.
 */
async function listDirectory(dir: string, ancestors: string[], out: Expanded): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    throw new InputError(`${dir}: cannot read directory: ${codeOf(err)}`);
  }
  for (const e of entries.sort((a, b) => compareText(a.name, b.name))) {
    const path = join(dir, e.name);
    let isDir = e.isDirectory();
    let isFile = e.isFile();
    if (e.isSymbolicLink()) {
      let st;
      try {
        st = await stat(path);
      } catch (err) {
        const code = codeOf(err);
        if (code === 'ENOENT' || code === 'ELOOP')
          throw new InputError(
            `${path}: broken symbolic link to ${await linkTarget(path)}${code === 'ELOOP' ? ' (a chain of links that never ends)' : ''}`,
          );
        throw new InputError(`${path}: cannot read: ${code}`);
      }
      isDir = st.isDirectory();
      isFile = st.isFile();
    }
    if (isDir) {
      let real;
      try {
        real = await realpath(path);
      } catch (err) {
        throw new InputError(`${path}: cannot read directory: ${codeOf(err)}`);
      }
      if (ancestors.includes(real)) {
        out.warnings.push(`${path}: symbolic link loop (points back to ${real}, which is being read): not followed`);
        continue;
      }
      await listDirectory(path, [...ancestors, real], out);
    } else if (isFile && DATA_FILE.test(e.name)) {
      out.files.push({ path, inDirectory: true });
    }
  }
}

/** Expands each path: a file as is, a directory into its data files, `-` stays stdin. */
export async function expandPaths(paths: string[]): Promise<Expanded> {
  const out: Expanded = { files: [], warnings: [] };
  for (const p of paths) {
    if (p === '-') {
      out.files.push({ path: p, inDirectory: false });
      continue;
    }
    let st;
    try {
      st = await stat(p);
    } catch (err) {
      const code = codeOf(err);
      if (code === 'ENOENT' && (await isLink(p)))
        throw new InputError(`${p}: broken symbolic link to ${await linkTarget(p)}`);
      throw new InputError(code === 'ENOENT' ? `${p}: no such file or directory` : `${p}: cannot read: ${code}`);
    }
    if (st.isDirectory()) {
      const before = out.files.length;
      await listDirectory(p, [await realpath(p)], out);
      if (out.files.length === before) throw new InputError(`${p}: directory has no .yaml, .yml or .json files`);
    } else {
      out.files.push({ path: p, inDirectory: false });
    }
  }
  return out;
}

async function isLink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch {
    return false;
  }
}
