/**
 * Bounds on what a parsed document may cost before anything walks it: how far YAML aliases may
 * expand it, and how deep an object may nest. Both walks use an explicit stack, never recursion.
 */

/** Deepest nesting of maps and lists an object may have (js-yaml's own `maxDepth` default). */
export const MAX_DEPTH = 100;

// The alias-expansion rule of gopkg.in/yaml.v2 v2.4.0 decode.go#allowedAliasRatio, which
// Kubernetes reads YAML with (sigs.k8s.io/yaml): up to 99% of decoded nodes may come from aliases
// in a document of up to 400,000 nodes, scaling down to 10% at 4,000,000.
const ALIAS_RATIO_RANGE_LOW = 400_000;
const ALIAS_RATIO_RANGE_HIGH = 4_000_000;

/** gopkg.in/yaml.v2 decode.go#allowedAliasRatio. */
export function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= ALIAS_RATIO_RANGE_LOW) return 0.99;
  if (decodeCount >= ALIAS_RATIO_RANGE_HIGH) return 0.1;
  return 0.99 - 0.89 * ((decodeCount - ALIAS_RATIO_RANGE_LOW) / (ALIAS_RATIO_RANGE_HIGH - ALIAS_RATIO_RANGE_LOW));
}

/**
 * What is wrong with a value parsed from YAML that uses anchors, if anything: `aliasing` when its
 * aliases expand it more than gopkg.in/yaml.v2 allows (decode.go#unmarshal: "document contains
 * excessive aliasing"), `depth` when aliases nest it deeper than MAX_DEPTH (js-yaml bounds the
 * depth of the text, not of what aliases build). js-yaml returns an alias as the same object as
 * its anchor, so a billion-laughs document is small in memory until something walks or copies
 * it; this walk stops as soon as a bound is passed. A map or list met again is an alias: every
 * node under it counts as alias-decoded. (Aliases of plain scalars cannot be told apart from
 * equal scalars, and do not expand.)
 */
export function aliasExpansionProblem(value: unknown, maxDepth: number = MAX_DEPTH): 'aliasing' | 'depth' | undefined {
  const seen = new Set<object>();
  const stack: { v: unknown; alias: boolean; depth: number }[] = [{ v: value, alias: false, depth: 0 }];
  let decodeCount = 0;
  let aliasCount = 0;
  while (stack.length) {
    const { v, alias: parentAlias, depth } = stack.pop()!;
    decodeCount++;
    let alias = parentAlias;
    if (typeof v === 'object' && v !== null) {
      if (seen.has(v)) alias = true;
      else seen.add(v);
    }
    if (alias) aliasCount++;
    if (aliasCount > 100 && decodeCount > 1000 && aliasCount / decodeCount > allowedAliasRatio(decodeCount))
      return 'aliasing';
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > maxDepth) return 'depth';
    const children = Array.isArray(v) ? v : Object.values(v);
    for (const c of children) stack.push({ v: c, alias, depth: depth + 1 });
  }
  return undefined;
}

/** True when maps and lists nest deeper than `limit` in `value` (a tree, as JSON.parse makes). */
export function nestedDeeperThan(value: unknown, limit: number = MAX_DEPTH): boolean {
  return typeof value === 'object' && value !== null && deeperThan(value, limit - 1);
}

/** True when the maps and lists inside `v` nest more than `levels` further levels. Recursion stops at `levels`, so its depth is bounded by the limit. */
function deeperThan(v: object, levels: number): boolean {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const c: unknown = v[i];
      if (typeof c === 'object' && c !== null && (levels === 0 || deeperThan(c, levels - 1))) return true;
    }
    return false;
  }
  const m = v as Record<string, unknown>;
  for (const k in m) {
    const c = m[k];
    if (typeof c === 'object' && c !== null && (levels === 0 || deeperThan(c, levels - 1))) return true;
  }
  return false;
}
