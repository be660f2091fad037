import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareText } from '../../src/model/order.js';

/** A small seeded generator, so a failure names strings that reproduce it. */
function strings(seed: number, alphabet: string, count: number): string[] {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () =>
    Array.from({ length: Math.floor(next() * 7) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''),
  );
}

const CASES: [string, string][] = [
  ['Kubernetes names: lowercase letters, digits, - and .', 'abcxyz0129.-'],
  // Characters whose code-point order differs from the collator's: they must go to localeCompare.
  ['with upper case, _, /, brackets, spaces and non-ASCII letters', 'abAB09.-_/[] éÉz'],
];

for (const [name, alphabet] of CASES) {
  test(`compareText orders as localeCompare does: ${name}`, () => {
    const a = strings(7, alphabet, 3000);
    const b = strings(11, alphabet, 3000);
    const differ = a
      .map((x, i) => [x, b[i]!] as const)
      .filter(([x, y]) => Math.sign(compareText(x, y)) !== Math.sign(x.localeCompare(y)));
    assert.deepEqual(differ.slice(0, 5), []);
  });
}

test('compareText sorts a list of names exactly as localeCompare', () => {
  const names = [
    'kube-proxy',
    'Kube-Proxy',
    'kube_proxy',
    'kube.proxy',
    'kube-proxy-2',
    'kube-proxy-10',
    'calico-node',
    'ébène',
    'zeta',
    '',
  ];
  assert.deepEqual(
    [...names].sort(compareText),
    [...names].sort((x, y) => x.localeCompare(y)),
  );
});
