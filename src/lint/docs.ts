/**
 * The lint-rules page (docs/lint-rules.md), generated from the rules' metadata so that the docs
 * cannot drift from the code (kube-linter's generated docs, kube-score's README_CHECKS.md). A test
 * compares the page with this text.
 */
import type { LintRule } from './types.js';
import { IGNORE_ANNOTATION, IGNORE_CHECK_PREFIX } from './suppress.js';

/** The page that holds the generated rule docs between the markers. */
export const RULE_DOCS_FILE = 'docs/lint-rules.md';

/** The marker lines that enclose the generated section in RULE_DOCS_FILE. */
export const README_START = '<!-- lint-rules:start -->';
/** See README_START. */
export const README_END = '<!-- lint-rules:end -->';

function severityText(rule: LintRule): string {
  return rule.meta.severityNote ? `${rule.meta.severity} (${rule.meta.severityNote})` : rule.meta.severity;
}

function entry(rule: LintRule): string {
  const m = rule.meta;
  return [
    `### ${m.id}`,
    '',
    `- **Severity:** ${severityText(rule)}`,
    `- **Needs:** ${m.needsCluster ? `${m.needsCluster}; without them the rule is reported as not checked` : 'the manifest only'}`,
    `- **Checks:** ${m.description}`,
    `- **Why:** ${m.rationale}`,
    `- **Fix:** ${m.howToFix}`,
    '',
    'Fires on:',
    '',
    '```yaml',
    m.example,
    '```',
  ].join('\n');
}

/** The Markdown between the markers (markers excluded). */
export function renderRuleDocs(rules: readonly LintRule[]): string {
  const index = rules.map(
    (r) =>
      `| [\`${r.meta.id}\`](#${r.meta.id}) | ${r.meta.severity} | ${r.meta.needsCluster ? 'cluster' : 'manifest'} | ${r.meta.description.replace(/\|/g, '\\|')} |`,
  );
  return [
    '',
    '`ds-doctor lint` checks DaemonSets as DaemonSets: no replica, anti-affinity or topology-spread',
    'rules, host access judged by what the agent does. It works on bare manifests (`lint -f dir/`);',
    'rules that need cluster data (nodes, PodDisruptionBudgets) use them when the input has them',
    '(a live cluster or a dump) and are listed as "not checked" otherwise. Findings carry the rule,',
    'severity, DaemonSet, message, the JSON path concerned and a fix; `-o sarif` writes SARIF 2.1.0',
    'for code scanning, and `--fail-on error|warning|none` (default error) sets the exit code.',
    '',
    `Turn rules off for one DaemonSet with the annotation \`${IGNORE_ANNOTATION}: rule-a,rule-b\`, or one`,
    `rule with a reason: \`${IGNORE_CHECK_PREFIX}<rule>: "<reason>"\`. The report lists what was`,
    'turned off and how many findings it hid.',
    '',
    '| rule | severity | input | checks |',
    '|---|---|---|---|',
    ...index,
    '',
    ...rules.flatMap((r) => [entry(r), '']),
  ].join('\n');
}

/** `readme` (the page's text) with the text between the markers replaced by the generated rule docs. */
export function withRuleDocs(readme: string, rules: readonly LintRule[]): string {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < start) throw new Error(`${RULE_DOCS_FILE} has no ${README_START} … ${README_END} section`);
  return `${readme.slice(0, start + README_START.length)}\n${renderRuleDocs(rules)}${readme.slice(end)}`;
}
