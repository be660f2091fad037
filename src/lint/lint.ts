/**
 * The lint engine: runs every rule over each DaemonSet, applies the suppression annotations,
 * and reports the rules the input cannot support as "not checked". Pure: no I/O, no clock.
 */
import type { DaemonSet } from '../model/k8s-types.js';
import { API_VERSION, type LintFinding, type LintReport, type ObjectRef } from '../model/results.js';
import { compareSeverity } from '../model/severity.js';
import type { ClusterSnapshot } from '../model/snapshot.js';
import { createLintContext } from './context.js';
import { RULES } from './registry.js';
import { IGNORE_ANNOTATION, suppressionsOf } from './suppress.js';
import type { LintRule } from './types.js';
import { compareText } from '../model/order.js';

function refOf(ds: DaemonSet): ObjectRef {
  return { namespace: ds.metadata?.namespace ?? 'default', name: ds.metadata?.name ?? '' };
}

function compareFindings(a: LintFinding, b: LintFinding): number {
  return (
    compareText(a.daemonSet.namespace, b.daemonSet.namespace) ||
    compareText(a.daemonSet.name, b.daemonSet.name) ||
    compareSeverity(a.severity, b.severity) ||
    compareText(a.rule, b.rule) ||
    a.path.localeCompare(b.path, 'en', { numeric: true }) ||
    compareText(a.message, b.message)
  );
}

/**
 * Lints `daemonSets` (objects of `snapshot`) with `rules`. Findings are sorted by DaemonSet,
 * severity, rule and path; each carries the file and line the DaemonSet was read from.
 */
export function lint(
  snapshot: ClusterSnapshot,
  daemonSets: readonly DaemonSet[],
  rules: readonly LintRule[] = RULES,
): LintReport {
  const ctx = createLintContext(snapshot);
  const known = new Set(rules.map((r) => r.meta.id));
  const notChecked: LintReport['notChecked'] = [];
  const active: LintRule[] = [];
  for (const rule of rules) {
    const why = rule.notChecked?.(ctx);
    if (why) notChecked.push({ rule: rule.meta.id, why });
    else active.push(rule);
  }
  const findings: LintFinding[] = [];
  const suppressed: LintReport['suppressed'] = [];
  const notes: string[] = [...snapshot.warnings];
  for (const ds of daemonSets) {
    const daemonSet = refOf(ds);
    const name = `${daemonSet.namespace}/${daemonSet.name}`;
    const origin = snapshot.origins.get(ds);
    const off = suppressionsOf(ds, known);
    if (off.unknown.length)
      notes.push(
        `${name}: ${IGNORE_ANNOTATION} names unknown rule(s) ${off.unknown.join(', ')}: they turn nothing off`,
      );
    let hidden = 0;
    for (const rule of active) {
      let found;
      try {
        found = rule.check(ds, ctx);
      } catch (err) {
        // A manifest of an unexpected shape (a string where a list belongs) must not stop the run.
        notes.push(`${name}: rule ${rule.meta.id} could not check it: ${(err as Error).message}`);
        continue;
      }
      if (off.rules.has(rule.meta.id)) {
        hidden += found.length;
        continue;
      }
      for (const f of found) {
        findings.push({
          rule: rule.meta.id,
          severity: f.severity ?? rule.meta.severity,
          daemonSet,
          message: f.message,
          path: f.path,
          fix: f.fix,
          ...(origin ? { location: { file: origin.file, line: Math.max(1, origin.line) } } : {}),
        });
      }
    }
    if (off.rules.size) {
      const ids = [...off.rules.keys()].sort();
      const reasons = Object.fromEntries(ids.filter((id) => off.rules.get(id)).map((id) => [id, off.rules.get(id)!]));
      suppressed.push({
        daemonSet,
        rules: ids,
        ...(Object.keys(reasons).length ? { reasons } : {}),
        hiddenFindings: hidden,
      });
    }
  }
  findings.sort(compareFindings);
  const summary = { error: 0, warning: 0, info: 0 };
  for (const f of findings) summary[f.severity]++;
  return {
    apiVersion: API_VERSION,
    kind: 'LintReport',
    findings,
    suppressed,
    notChecked,
    daemonSets: daemonSets.length,
    summary,
    ...(notes.length ? { notes } : {}),
  };
}
