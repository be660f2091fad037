/**
 * Resource quantities, as `k8s.io/apimachinery/pkg/api/resource/quantity.go` parses them.
 * Values are kept exact as a fraction of BigInts, then scaled and rounded up like
 * `Quantity.Value()` / `Quantity.MilliValue()`.
 */

interface Fraction {
  num: bigint;
  den: bigint;
}

const BINARY: Record<string, bigint> = {
  Ki: 1024n,
  Mi: 1024n ** 2n,
  Gi: 1024n ** 3n,
  Ti: 1024n ** 4n,
  Pi: 1024n ** 5n,
  Ei: 1024n ** 6n,
};
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

const QUANTITY = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;

/**
 * Answers of `isQuantity` for strings seen before: a dump repeats a few dozen quantities
 * ("100m", "128Mi") across every pod, and the load checks each one. Bounded, cleared when full.
 */
const QUANTITY_SEEN = new Map<string, boolean>();
const QUANTITY_SEEN_MAX = 4096;

/** True when `parseQuantity` accepts the input (checked without building the number). */
export function isQuantity(input: string | number): boolean {
  if (typeof input !== 'string') return matchesQuantity(input);
  let ok = QUANTITY_SEEN.get(input);
  if (ok === undefined) {
    ok = matchesQuantity(input);
    if (QUANTITY_SEEN.size >= QUANTITY_SEEN_MAX) QUANTITY_SEEN.clear();
    QUANTITY_SEEN.set(input, ok);
  }
  return ok;
}

function matchesQuantity(input: string | number): boolean {
  const m = QUANTITY.exec(String(input).trim());
  if (!m) return false;
  const suffix = m[3] ?? '';
  return suffix in BINARY || suffix in DECIMAL || Math.abs(Number(suffix.slice(1))) <= 1000;
}

/** Parses a quantity string ("100m", "1.5Gi", "1e3", "2") exactly; undefined when malformed. */
export function parseQuantity(input: string | number): Fraction | undefined {
  const text = String(input).trim();
  const m = QUANTITY.exec(text);
  if (!m) return undefined;
  const [, sign, digits, suffix = ''] = m;
  const [whole, frac = ''] = digits!.split('.');
  let num = BigInt((whole || '0') + frac);
  let den = 10n ** BigInt(frac.length);
  if (suffix in BINARY) {
    num *= BINARY[suffix]!;
  } else {
    const exp = suffix in DECIMAL ? DECIMAL[suffix]! : Number(suffix.slice(1));
    if (!Number.isFinite(exp) || Math.abs(exp) > 1000) return undefined;
    if (exp >= 0) num *= 10n ** BigInt(exp);
    else den *= 10n ** BigInt(-exp);
  }
  if (sign === '-') num = -num;
  return { num, den };
}

function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a > 0n === b > 0n ? q + 1n : q;
}

/** `Quantity.MilliValue()`: ceil(q × 1000). Throws on a malformed quantity. */
export function milliValue(input: string | number): number {
  const q = parseQuantity(input);
  if (!q) throw new Error(`invalid quantity "${input}"`);
  return Number(ceilDiv(q.num * 1000n, q.den));
}

/** `Quantity.Value()`: ceil(q). Throws on a malformed quantity. */
export function value(input: string | number): number {
  const q = parseQuantity(input);
  if (!q) throw new Error(`invalid quantity "${input}"`);
  return Number(ceilDiv(q.num, q.den));
}

/**
 * The unit the scheduler compares a resource in: cpu in millicores, everything else
 * (memory, ephemeral-storage, pods, hugepages, extended resources) in whole units.
 */
export function resourceAmount(resource: string, quantity: string | number): number {
  return resource === 'cpu' ? milliValue(quantity) : value(quantity);
}

/** Formats an amount (as returned by resourceAmount) the way a person reads it. */
export function formatAmount(resource: string, amount: number): string {
  if (resource === 'cpu') {
    return amount % 1000 === 0 ? String(amount / 1000) : `${amount}m`;
  }
  if (resource === 'memory' || resource === 'ephemeral-storage' || resource.startsWith('hugepages-')) {
    const units: [string, number][] = [
      ['Gi', 1024 ** 3],
      ['Mi', 1024 ** 2],
      ['Ki', 1024],
    ];
    for (const [unit, size] of units) {
      if (Math.abs(amount) >= size) {
        const v = amount / size;
        return `${Number.isInteger(v) ? v : v.toFixed(1)}${unit}`;
      }
    }
  }
  return String(amount);
}
