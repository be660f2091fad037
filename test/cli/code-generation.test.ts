// Node.js run with --disallow-code-generation-from-strings (a hardening some installations set in
// NODE_OPTIONS) refuses `new Function` and `eval`: ds-doctor generates no code from strings, so
// every answer is the same, warnings included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

async function ds(nodeFlags: string[], argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...nodeFlags, 'bin/ds-doctor.js', ...argv], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

const NOW = ['--now', '2026-11-29T12:00:00Z'];
const HARDENED = ['--disallow-code-generation-from-strings'];

test('scan of the demo dump is the same when code cannot be generated from strings', async () => {
  const argv = ['scan', '-f', 'fixtures/demo', ...NOW, '-o', 'json'];
  const [plain, hardened] = await Promise.all([ds([], argv), ds(HARDENED, argv)]);
  assert.equal(plain.code, 1, plain.stderr);
  assert.deepEqual(hardened, plain);
});

test('shape warnings (a wrong type, a null between fields) are the same when code cannot be generated from strings', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ds-doctor-codegen-'));
  const file = join(dir, 'ds.yaml');
  await writeFile(
    file,
    [
      'apiVersion: apps/v1',
      'kind: DaemonSet',
      'metadata: {name: agent, namespace: ns, uid: null, generation: 2}',
      'spec:',
      '  selector: {matchLabels: {app: agent}}',
      '  minReadySeconds: soon',
      '  template:',
      '    metadata: {labels: {app: agent}}',
      '    spec:',
      '      hostNetwork: "true"',
      '      containers: [{name: c, image: agent:1, ports: [{containerPort: 8080, hostPort: x}]}]',
      '',
    ].join('\n'),
  );
  const argv = ['lint', '-f', file, '-o', 'json'];
  const [plain, hardened] = await Promise.all([ds([], argv), ds(HARDENED, argv)]);
  const notes = (JSON.parse(plain.stdout) as { notes: string[] }).notes.map((n) =>
    n.replace(/^.*?: DaemonSet ns\/agent: /, ''),
  );
  assert.deepEqual(notes, [
    'spec.template.spec.containers[0].ports[0].hostPort: expected a 32-bit integer, found a string; ignored',
    'spec.template.spec.hostNetwork: expected a boolean, found a string; ignored',
    'spec.minReadySeconds: expected a 32-bit integer, found a string; ignored',
  ]);
  assert.deepEqual(hardened, plain);
});
