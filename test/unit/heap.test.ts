// When the heap's growth is bounded (src/load/heap.ts): past BOUND_ABOVE characters of YAML read
// over all sources, or before reading one YAML file larger than that; never for JSON. Each case
// runs in a child process, as the bound holds for the rest of the process it is set in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const heap = pathToFileURL(join(process.cwd(), 'dist/src/load/heap.js')).href;
const files = pathToFileURL(join(process.cwd(), 'dist/src/load/files.js')).href;

/** Runs `body` in a child with heap.ts imported as `h`; returns what it printed. */
function child(body: string): string {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', `import * as h from ${JSON.stringify(heap)};\nimport { loadFiles } from ${JSON.stringify(files)};\n${body}`], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
}

test('YAML read over several sources: bounded once past BOUND_ABOVE characters in all, not before', () => {
  assert.equal(child('h.readYaml(h.BOUND_ABOVE / 2); h.readYaml(h.BOUND_ABOVE / 2); console.log(h.heapGrowthBounded()); h.readYaml(1); console.log(h.heapGrowthBounded());'), 'false\ntrue');
});

test('a YAML file larger than BOUND_ABOVE: bounded before it is read; one of that size or less: not', () => {
  assert.equal(child('h.readingYamlFile(h.BOUND_ABOVE); console.log(h.heapGrowthBounded()); h.readingYamlFile(h.BOUND_ABOVE + 1); console.log(h.heapGrowthBounded());'), 'false\ntrue');
});

test('loading a small YAML and a JSON dump leaves the heap as V8 sizes it', () => {
  assert.equal(child("await loadFiles(['fixtures/demo'], async () => ''); await loadFiles(['fixtures/cluster-info-dump'], async () => ''); console.log(h.heapGrowthBounded());"), 'false');
});
