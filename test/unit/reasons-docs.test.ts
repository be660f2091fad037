/**
 * docs/reasons.md is generated from the registries in src/model/reasons/: regenerating it gives
 * no diff (`npm run docs` rewrites it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { REASONS_DOC_PATH, renderReasonDocs } from '../../src/model/reasons/docs.js';
import { IMPACT_FINDINGS, PLACEMENT_REASONS, ROLLOUT_REASONS } from '../../src/model/reasons/index.js';

test('docs/reasons.md equals what npm run docs generates from the registries', () => {
  assert.equal(
    readFileSync(REASONS_DOC_PATH, 'utf8'),
    renderReasonDocs(),
    'docs/reasons.md is stale: run npm run docs',
  );
});

const FAMILIES = [
  { name: 'node verdict reasons', entries: PLACEMENT_REASONS },
  { name: 'rollout reasons', entries: ROLLOUT_REASONS },
  { name: 'impact findings', entries: IMPACT_FINDINGS },
];

for (const family of FAMILIES) {
  test(`every one of the ${family.name} is documented with its meaning`, () => {
    const doc = renderReasonDocs();
    for (const [code, entry] of Object.entries(family.entries)) {
      assert.match(code, /^[A-Z][A-Za-z]+$/, `${code} is PascalCase`);
      assert.ok(entry.meaning.endsWith('.'), `${code}: the meaning is a sentence`);
      assert.ok(doc.includes(`| \`${code}\` |`), `${code} has a row in docs/reasons.md`);
      if ('upstream' in entry)
        assert.match(
          entry.upstream,
          /^kubernetes v1\.35\.4 \S+#\S+$/,
          `${code}: upstream names kubernetes v1.35.4 path#Function`,
        );
    }
  });
}
