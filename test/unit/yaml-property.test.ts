// The seeded property test of YAML text against js-yaml (test/yaml-property.ts), a few thousand
// cases; test/slow/yaml-property.test.ts runs 50,000 and more (npm run test:slow).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { yamlProperty } from '../yaml-property.js';

test('YAML property: 3,000 seeded texts (dumped values, edits, fixtures) read as js-yaml reads them', (t) => {
  const started = Date.now();
  const r = yamlProperty(1, 3000, 25);
  t.diagnostic(
    `${r.cases} cases, ${r.translated} translated, ${r.jsYamlErrors} refused by js-yaml, ${r.streamed} through the stream, ${Date.now() - started} ms`,
  );
  assert.ok(r.translated > r.cases / 3, 'most texts are in the translated subset');
  assert.ok(r.jsYamlErrors > 0, 'some texts are broken');
});
