/**
 * `selector-mutable-label`: the immutable selector holds no label that a new version changes.
 * Motivation: issue 39 (`app.kubernetes.io/version: master` in a CSI driver's selector). The API
 * server refuses any change of an apps/v1 DaemonSet's selector (kubernetes v1.35.4
 * pkg/registry/apps/daemonset/strategy.go#ValidateUpdate: "field is immutable") and requires the
 * selector to match the template labels (pkg/apis/apps/validation#ValidateDaemonSetSpec:
 * "`selector` does not match template `labels`"; docs/semantics.md §3.2). A version, chart or
 * branch label in the selector must then stay at its first value in the template for ever: the
 * next release that bumps it is refused, and changing it means deleting and re-creating the
 * DaemonSet.
 */
import type { LintRule, RuleFinding } from '../types.js';
import { yamlBlock } from '../template.js';

/** Label names (after any prefix) that carry a release: app.kubernetes.io/version, version, helm.sh/chart, chart. */
const RELEASE_KEY = /^(version|chart|.*[-_.]version)$/i;

/** Branch and channel values: what a label moves with. */
const CHANNEL = /^(latest|master|main|canary|nightly|edge|dev|devel|develop|stable|snapshot|head|trunk)$/i;

/** Why a label's value changes with releases, or undefined. */
export function mutableLabel(key: string, value: string): string | undefined {
  const name = key.slice(key.lastIndexOf('/') + 1);
  if (RELEASE_KEY.test(name)) return `${name === 'chart' ? 'a chart label' : 'a version label'}`;
  if (CHANNEL.test(value)) return `the branch or channel ${value}`;
  if (/^v?\d+(\.\d+){1,3}([-+_.][0-9A-Za-z.-]+)?$/.test(value)) return 'a version value';
  if (/^[a-z0-9]([-a-z0-9]*[a-z0-9])?-v?\d+\.\d+\.\d+/.test(value)) return 'a chart-version value';
  return undefined;
}

/** The `selector-mutable-label` rule, as the registry lists it. */
export const selectorMutableLabel: LintRule = {
  meta: {
    id: 'selector-mutable-label',
    severity: 'warning',
    description:
      '`spec.selector` holds no label whose value changes between releases: a version, chart or branch label (`app.kubernetes.io/version`, `helm.sh/chart`, `version: master`), or a version-like value.',
    rationale:
      'The selector of an apps/v1 DaemonSet is immutable (the API server answers a change with "field is immutable") and must keep matching the template labels. A version or chart label in it is frozen at its first value: the next release that bumps it in the template is refused (the selector no longer matches), and the only way out is to delete and re-create the DaemonSet, with `--cascade=orphan` to keep the agent running meanwhile.',
    howToFix:
      'Select on stable identity labels only (`app.kubernetes.io/name`, `app.kubernetes.io/instance`); keep version and chart labels in the template metadata, outside the selector.',
    example: 'spec:\n  selector:\n    matchLabels:\n      app: csi-node\n      app.kubernetes.io/version: master',
  },
  check(ds) {
    const selector = ds.spec?.selector;
    const out: RuleFinding[] = [];
    const stable: Record<string, string> = {};
    const frozen: string[] = [];
    for (const [key, value] of Object.entries(selector?.matchLabels ?? {})) {
      const why = mutableLabel(key, String(value));
      if (why) frozen.push(`${key}=${String(value)} (${why})`);
      else stable[key] = String(value);
    }
    if (frozen.length) {
      out.push({
        message: `the selector holds ${frozen.join(', ')}: the selector is immutable and must match the template labels, so a release that changes ${frozen.length === 1 ? 'this label' : 'these labels'} is refused, and changing ${frozen.length === 1 ? 'it' : 'them'} means deleting and re-creating the DaemonSet`,
        path: 'spec.selector.matchLabels',
        fix: Object.keys(stable).length
          ? `select on the stable labels only (on a new DaemonSet: the selector of an existing one cannot change):\n${yamlBlock({ selector: { matchLabels: stable } })}`
          : 'select on stable identity labels only (app.kubernetes.io/name, app.kubernetes.io/instance), on a new DaemonSet: the selector of an existing one cannot change',
      });
    }
    (selector?.matchExpressions ?? []).forEach((e, i) => {
      const values = (e.values ?? []).map((v) => [v, mutableLabel(e.key, v)] as const).filter(([, why]) => why);
      if (e.operator !== 'In' || !values.length) return;
      out.push({
        message: `the selector's expression ${e.key} In (${(e.values ?? []).join(', ')}) names ${values.map(([v, why]) => `${v} (${why})`).join(', ')}: the selector is immutable, so a release that changes it is refused`,
        path: `spec.selector.matchExpressions[${i}]`,
        fix: 'select on stable identity labels only, on a new DaemonSet: the selector of an existing one cannot change',
      });
    });
    return out;
  },
};
