// Output failures (issue 13, class 7), with the real bin/ in a child process: a full disk is one
// line and exit 2; a reader that closes the pipe early ends the run quietly with exit 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, openSync, closeSync, readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';

const BIN = 'bin/ds-doctor.js';

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** Runs the CLI with stdout on `stdout` (a file descriptor, or 'pipe' handed to `onStdout`). */
function runBin(args: string[], stdout: number | 'pipe', onStdout?: (s: NodeJS.ReadableStream) => void): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      stdio: ['ignore', stdout, 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (s: string) => {
      stderr += s;
    });
    if (onStdout) onStdout(child.stdout!);
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

/** The demo dump plus `extra` copies of one of its nodes: a `nodes` table of any length. */
function bigDump(extra: number): string {
  const items: Record<string, any>[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any
  for (const f of ['nodes', 'daemonsets', 'pods', 'controllerrevisions']) {
    for (const doc of yaml.loadAll(readFileSync(`fixtures/demo/${f}.yaml`, 'utf8')) as {
      items: Record<string, unknown>[];
    }[])
      items.push(...doc.items);
  }
  const template = items.find((o) => o['kind'] === 'Node' && o['metadata'].name === 'worker-2')!;
  for (let i = 0; i < extra; i++) {
    const n = structuredClone(template);
    n.metadata = {
      ...n.metadata,
      name: `extra-${i}`,
      uid: `uid-extra-${i}`,
      labels: { ...n.metadata.labels, 'kubernetes.io/hostname': `extra-${i}` },
    };
    items.push(n);
  }
  const dir = mkdtempSync(join(tmpdir(), 'ds-doctor-output-'));
  const file = join(dir, 'big.json');
  writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
  return file;
}

const FULL = '/dev/full';
// The demo's own time, so that no "judging the input at its newest timestamp" note joins stderr.
const NOW = ['--now', '2026-11-29T12:00:00Z'];

const DISK_FULL: [string, string[]][] = [
  ['scan table', ['scan', '-f', 'fixtures/demo']],
  ['why json', ['why', 'logging/fluent-bit', '-f', 'fixtures/demo', '-o', 'json']],
  ['lint sarif', ['lint', '-f', 'fixtures/demo', '-o', 'sarif']],
];

for (const [name, args] of DISK_FULL) {
  test(
    `stdout on a full disk (${FULL}, ENOSPC): ${name} prints one line and exits 2`,
    { skip: existsSync(FULL) ? false : `${FULL} is absent on this system: the ENOSPC case cannot run` },
    async () => {
      const fd = openSync(FULL, 'w');
      try {
        const r = await runBin([...args, ...NOW], fd);
        assert.equal(r.code, 2, r.stderr);
        assert.equal(r.stderr, 'error: writing output: ENOSPC: no space left on device, write\n');
      } finally {
        closeSync(fd);
      }
    },
  );
}

// Each output must outlast a pipe's buffer (64 kB) and the chunk the reader takes, so that the
// writer is still writing when the read end closes. A table row is about 70 bytes: 210 kB.
const CLOSED_PIPE: [string, string[], number][] = [
  ['nodes table of 3000 nodes, reader takes one chunk', ['nodes', 'monitoring/node-exporter'], 3000],
  // About 500 bytes a node: 250 kB, well past a pipe's 64 kB and the one chunk the reader takes.
  ['nodes -o json of 500 nodes, reader takes one chunk', ['nodes', 'monitoring/node-exporter', '-o', 'json'], 500],
];

for (const [name, args, extra] of CLOSED_PIPE) {
  test(`a closed pipe (EPIPE): ${name}: quiet, exit 0`, async () => {
    const file = bigDump(extra);
    const r = await runBin([...args, '-f', file, ...NOW], 'pipe', (out) => {
      // As `| head -1` does: read a little, then close the read end while the writer is still writing.
      out.once('data', () => (out as unknown as { destroy(): void }).destroy());
    });
    assert.equal(r.stderr, '');
    assert.equal(r.signal, null);
    assert.equal(r.code, 0);
  });
}
