/**
 * Every rule has an id (kebab-case, from the contract), its own file with a doc comment naming
 * its motivation, a test file, and an entry in docs/lint-rules.md that matches its metadata; the
 * registry is sorted. `UPDATE_README=1` rewrites that page's section from the metadata.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { RULES } from '../../../src/lint/registry.js';
import { README_END, README_START, RULE_DOCS_FILE, renderRuleDocs, withRuleDocs } from '../../../src/lint/docs.js';

/** The rule ids the contract fixes for `lint` (docs/design.md §4.2). */
const CONTRACT_IDS = [
  'resources-requests-missing',
  'memory-limit-missing',
  'priority-class-missing',
  'read-only-root-filesystem',
  'run-as-non-root',
  'privileged-container',
  'deprecated-api-version',
  'selector-template-mismatch',
  'surge-with-host-port',
  'max-unavailable-too-low',
  'blanket-toleration',
  'custom-taint-not-tolerated',
  'host-network-dns-policy',
  'readiness-probe-missing',
  'image-tag-mutable',
  'pdb-missing',
  'update-strategy-on-delete',
  'missing-os-selector',
  // Issue 14 §3 and §5.
  'credential-in-env',
  'liveness-probe-missing',
  'privilege-escalation-allowed',
  'not-ready-toleration-missing',
  // Issue 39.
  'csi-node-taints-not-tolerated',
  'max-unavailable-all-unprobed',
  'selector-mutable-label',
  'probe-port-not-declared',
  'api-validation',
];

describe('lint rule registry', () => {
  it("holds exactly the contract's rule ids, sorted and unique", () => {
    const ids = RULES.map((r) => r.meta.id);
    assert.deepEqual(ids, [...ids].sort());
    assert.equal(new Set(ids).size, ids.length);
    assert.deepEqual([...ids].sort(), [...CONTRACT_IDS].sort());
  });

  if (process.env['UPDATE_README']) {
    writeFileSync(RULE_DOCS_FILE, withRuleDocs(readFileSync(RULE_DOCS_FILE, 'utf8'), RULES));
  }
  const readme = readFileSync(RULE_DOCS_FILE, 'utf8');
  const section = readme.slice(readme.indexOf(README_START) + README_START.length, readme.indexOf(README_END));

  it(`${RULE_DOCS_FILE}: the section between the markers is generated from the metadata (UPDATE_README=1 npm test rewrites it)`, () => {
    assert.ok(readme.includes(README_START) && readme.includes(README_END));
    assert.equal(section, `\n${renderRuleDocs(RULES)}`);
  });

  for (const rule of RULES) {
    describe(rule.meta.id, () => {
      const m = rule.meta;
      it('has a kebab-case id and complete metadata', () => {
        assert.match(m.id, /^[a-z]+(-[a-z]+)*$/);
        for (const field of ['description', 'rationale', 'howToFix', 'example'] as const)
          assert.ok(m[field].trim().length > 10, field);
        assert.ok(['error', 'warning', 'info'].includes(m.severity));
        assert.match(m.description, /\.$/, 'description is a sentence');
      });
      it('lives in its own file whose doc comment names the rule and its motivation', () => {
        const file = `src/lint/rules/${m.id}.ts`;
        assert.ok(existsSync(file), file);
        const head = readFileSync(file, 'utf8').split('*/')[0]!;
        assert.match(head, new RegExp(`^/\\*\\*\\n \\* \`${m.id}\``));
        assert.match(head, /Motivation:/);
      });
      it('has a test file', () => {
        assert.ok(existsSync(`test/unit/lint/rules/${m.id}.test.ts`));
      });
      it('has an entry in the rule docs with its anchor, severity, checks, why and fix', () => {
        const start = section.indexOf(`\n### ${m.id}\n`);
        assert.ok(start >= 0, `${RULE_DOCS_FILE} has no "### ${m.id}" heading`);
        const body = section.slice(start, section.indexOf('\n### ', start + 1) >>> 0 || undefined);
        for (const label of ['**Severity:**', '**Checks:**', '**Why:**', '**Fix:**', '```yaml'])
          assert.ok(body.includes(label), label);
        assert.ok(section.includes(`](#${m.id})`), 'the index links to the entry');
      });
    });
  }
});
