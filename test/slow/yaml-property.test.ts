// The seeded property test of YAML text against js-yaml (test/yaml-property.ts) at full size:
// 50,000 cases of each of two seeds, every 50th also through the stream in random chunks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { yamlProperty } from '../yaml-property.js';

for (const seed of [2, 3]) {
  test(`YAML property, seed ${seed}: 50,000 texts read as js-yaml reads them`, (t) => {
    const started = Date.now();
    const r = yamlProperty(seed, 50_000, 50);
    t.diagnostic(
      `${r.cases} cases, ${r.translated} translated, ${r.jsYamlErrors} refused by js-yaml, ${r.streamed} through the stream, ${Date.now() - started} ms`,
    );
    assert.ok(r.translated > r.cases / 3);
  });
}
