#!/usr/bin/env node
// Writes dist/build-info.json ({"commit": "<short id>"}), which `ds-doctor --version` reads.
// Run by `npm run build` (and so by `npm pack` through prepack); outside a git checkout the
// commit is "unknown". dist/ is not in git, so the file never is.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The short commit id of the checkout, or "unknown". */
export function gitCommit(dir = root) {
  try {
    return (
      execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim() || 'unknown'
    );
  } catch {
    return 'unknown';
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = join(root, 'dist', 'build-info.json');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ commit: gitCommit() })}\n`);
}
