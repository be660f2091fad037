// The YAML-to-JSON translator (src/load/yaml-json.ts) gives, through JSON.parse, exactly what
// js-yaml's load with CORE_SCHEMA gives, or leaves the text to js-yaml: a table of edge cases, the
// mutation fuzzer's YAML mutants, bad YAML; and the stream that uses it agrees with the whole-text
// parse (js-yaml alone), errors included, over a few chunk sizes of every fixture, generated dumps
// and tables of texts (test/yaml-sweeps.ts; every size in test/slow/yaml-sweeps.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeMutant, mutantRng, readCorpus } from '../fuzz/mutate.js';
import { agrees, bothWays, documentsOf, yamlSweeps } from '../yaml-sweeps.js';

// Each case: the YAML text and whether it is translated (true) or left to js-yaml (false).
// Either way the value must be js-yaml's.
const CASES: { name: string; text: string; translated: boolean }[] = [
  { name: 'nulls', text: 'a:\nb: ~\nc: null\nd: Null\ne: NULL\nf: nUll\n', translated: true },
  {
    name: 'booleans (core schema: not yes/no/on/off)',
    text: 'a: true\nb: False\nc: TRUE\nd: yes\ne: no\nf: on\ng: off\nh: tRue\n',
    translated: true,
  },
  {
    name: 'integers: 0x, 0o, 0b, signs, underscores, leading zeros, huge',
    text: 'a: 1\nb: -12\nc: +7\nd: 0x1F\ne: 0o17\nf: 0b101\ng: 1_000\nh: 0755\ni: 08\nj: 0\nk: -0\nl: 123456789012345678901234567890\nm: 0x_1\nn: 9007199254740993\no: -0x10\np: 0x\n',
    translated: true,
  },
  {
    name: 'floats: exponents, leading dot, trailing dot, overflow',
    text: 'a: 1.5\nb: -1.5e3\nc: .5\nd: 1e3\ne: 1.\nf: 1_0.5\ng: 1.0_\nh: 6.02E+23\ni: 1.2.3\nj: 1e500\nk: -0.0\nl: +1.25\n',
    translated: true,
  },
  {
    name: '.inf and .nan are left to js-yaml (JSON has no such numbers)',
    text: 'a: .inf\nb: -.Inf\nc: .NaN\n',
    translated: false,
  },
  {
    name: 'timestamps and versions stay strings',
    text: 'a: 2026-11-29T12:00:00Z\nb: 2001-12-14\nc: 1.2.3\nd: v1\ne: 1:20\nf: 12:30:00\n',
    translated: true,
  },
  {
    name: 'keys resolve like values, then become strings',
    text: '1: a\n0x10: b\ntrue: c\nnull: d\n1.50: e\n-0: g\n1e3: h\n.5: i\n',
    translated: true,
  },
  {
    name: 'keys with colons, slashes, dots, spaces and quotes',
    text: 'a:b: 1\nhttp://x: 2\nnode.kubernetes.io/instance-type: m5\n"quoted: key": 3\n\'single\': 4\na b  : 5\nx"y: 6\nback\\slash: 7\n',
    translated: true,
  },
  {
    name: 'single-quoted scalars',
    text: "a: 'it''s'\nb: ''\nc: '#not a comment'\nd: ' spaced '\ne: 'a\\nb'\nf: 'say \"hi\"'\n",
    translated: true,
  },
  {
    name: 'double-quoted escapes',
    text: 'a: "tab\\tnl\\nq\\"bs\\\\sl\\/"\nb: "\\x41\\u00e9\\U0001F600"\nc: "\\0\\a\\b\\v\\f\\r\\e\\ \\N\\_\\L\\P"\nd: "#x"\ne: ""\nf: "\\uD800"\ng: "it\'s"\n',
    translated: true,
  },
  {
    name: 'lone surrogates from escapes, in keys and values',
    text: '"\\uD800": a\n"\\uDC00x": "\\uDC00"\nk: "\\uD83D\\uDE00 \\uD83D"\n',
    translated: true,
  },
  { name: 'an unknown escape is left to js-yaml (which refuses it)', text: 'a: "\\q"\n', translated: false },
  {
    name: 'literal block scalars, every chomping',
    text: 'a: |\n  one\n  two\n\nb: |-\n  one\n\n\nc: |+\n  one\n\n\nd: x\n',
    translated: true,
  },
  {
    name: 'folded block scalars',
    text: 'a: >\n  one\n  two\n\n  three\n    more\n  back\nb: >-\n  x\n  y\nc: >+\n  z\n\n',
    translated: true,
  },
  {
    name: 'block scalar with an indentation indicator',
    text: 'a: |2\n    indented first\n  second\nb: |1-\n  x\nc: >2+\n   y\n',
    translated: true,
  },
  {
    name: 'block scalar: comment after the header, lines of spaces',
    text: 'a: | # note\n  x\n    \n  y\n   \nb: 1\n',
    translated: true,
  },
  {
    name: 'block scalar: leading lines of spaces deeper than the text',
    text: 'a: |\n      \n  x\n',
    translated: false,
  },
  { name: 'block scalar at the end of the text, keep chomping', text: 'a: |+\n  x\n\n', translated: true },
  { name: 'block scalar without a line break at the end', text: 'a: |-\n  x\n  y', translated: true },
  {
    name: 'block scalars in a sequence and in a compact mapping',
    text: '- |\n  a\n- name: x\n  script: |-\n    echo "#1" \'q\' \\n\n    exit 0\n- >\n  f\n',
    translated: true,
  },
  { name: 'empty block scalar', text: 'a: |\nb: 1\nc: >+\n\nd: 2\n', translated: true },
  { name: 'block scalar text looking like YAML', text: 'a: |\n  b: c\n  - d\n  # e\n  "f\n---x\n', translated: false },
  {
    name: 'block scalar text looking like YAML, in the subset',
    text: 'a: |\n  b: c\n  - d\n  # e\n  "f\n  --- x\ng: 1\n',
    translated: true,
  },
  {
    name: "kubectl's nesting: sequences at the key's indentation",
    text: 'spec:\n  containers:\n  - name: a\n    ports:\n    - containerPort: 80\n      protocol: TCP\n    args:\n    - --x\n    - "--y=1"\n  - name: b\nkind: Pod\n',
    translated: true,
  },
  {
    name: "yaml.dump's nesting: sequences indented under the key",
    text: 'spec:\n  containers:\n    - name: a\n      args:\n        - x\n',
    translated: true,
  },
  { name: 'sequences of sequences, - - x', text: '- - a\n  - b\n- - - c\n- []\n', translated: true },
  { name: 'empty entries and values', text: 'a:\n- \n-\n- x\nb:\nc: {}\nd: []\ne: { }\nf: [ ]\n', translated: true },
  { name: 'a key with nothing below it, then a less indented line', text: 'a:\n  b:\nc: 1\n', translated: true },
  {
    name: 'a compact mapping in a sequence, with a sequence value at its keys',
    text: '- a:\n  - x\n  b: 1\n- c: 2\n',
    translated: true,
  },
  {
    name: 'unicode in keys and values',
    text: 'ключ: значение\nemoji: "😀"\nplain: 日本語 テキスト 😀\nnbsp: "a\u00a0"\nnbsp2: b\u00a0\n',
    translated: true,
  },
  { name: 'trailing spaces after values and keys', text: 'a: 1   \nb: x y  \nc:   \n  - z  \n', translated: true },
  {
    name: 'comments after values, on their own lines, at any indentation',
    text: '# head\na: 1 # one\nb: x#y\nc: # none\n# between\n  d: 2\ne:\n      # deep\n  - f\n',
    translated: true,
  },
  { name: '# inside quotes is text', text: 'a: "x # y"\nb: \'# z\'\nc: "#"\n', translated: true },
  { name: 'flow collections with content are left to js-yaml', text: 'a: [a, "b c", 1]\n', translated: false },
  { name: 'flow mappings are left to js-yaml', text: 'a: {b: 1}\n', translated: false },
  { name: 'anchors and aliases are left to js-yaml', text: 'a: &x 1\nb: *x\n', translated: false },
  { name: 'tags are left to js-yaml', text: 'a: !!str 1\n', translated: false },
  { name: 'complex keys are left to js-yaml', text: '? a\n: b\n', translated: false },
  {
    name: 'multi-line plain scalars (kubectl folds long strings at 80 columns)',
    text: 'a: one\n  two\n   three  \nb: 1\n',
    translated: true,
  },
  {
    name: 'multi-line plain scalars: blank lines are line feeds',
    text: 'a: one\n\n  two\n\n\n  three\n',
    translated: true,
  },
  {
    name: 'multi-line plain scalars in sequences and compact mappings',
    text: 'a:\n- one\n  two\n- name: x\n  value: long\n    text - with dash\n  other: y\n',
    translated: true,
  },
  {
    name: 'multi-line plain scalars: resolved whole, quotes and dashes inside',
    text: "a: 1\n  2\nb: true\n  x\nc: it's\n  'so'\nd: x\n  - y\n",
    translated: true,
  },
  { name: 'multi-line plain scalar at the end of the text', text: 'a: one\n  two', translated: true },
  { name: 'multi-line plain scalar, then a comment at its key', text: 'a: one\n  two\n# c\nb: 2\n', translated: true },
  {
    name: 'multi-line plain scalar: a deeper comment line is left to js-yaml',
    text: 'a: one\n    # c\nb: 2\n',
    translated: false,
  },
  {
    name: 'multi-line plain scalar: a comment after the first line is left to js-yaml',
    text: 'a: one # c\n  two\n',
    translated: false,
  },
  {
    name: 'multi-line plain scalar: a comment in a continuation is left to js-yaml',
    text: 'a: one\n  two # c\n',
    translated: false,
  },
  {
    name: 'multi-line plain scalar: a key in a continuation is left to js-yaml',
    text: 'a: one\n  b: two\n',
    translated: false,
  },
  { name: 'a plain scalar on the line below its key is left to js-yaml', text: 'a:\n  one\n', translated: false },
  {
    name: 'multi-line quoted scalars, as kubectl folds them',
    text: "a: 'one two\n  three '' four'\nb: \"x\n  \\ y \\\"z\\\"\n  \\u00e9\"\nc:\n- 'p\n\n\n  q'\n- name: n\n  message: '0/5 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane:\n    }, 4 Insufficient cpu.'\n",
    translated: true,
  },
  {
    name: 'multi-line single quotes: spaces around a break are dropped',
    text: "a: 'one   \n     two  '\n",
    translated: true,
  },
  {
    name: 'multi-line quoted scalar, less indented than its key (js-yaml warns only)',
    text: "x:\n  a: 'one\n two'\n",
    translated: true,
  },
  { name: 'multi-line quoted scalar with a comment after it', text: "a: 'one\n  two' # c\nb: 1\n", translated: true },
  {
    name: 'multi-line double quotes: an escaped line break is left to js-yaml',
    text: 'a: "one\\\n  two"\n',
    translated: false,
  },
  {
    name: 'multi-line double quotes: spaces before a break are left to js-yaml',
    text: 'a: "one  \n  two"\n',
    translated: false,
  },
  {
    name: 'multi-line quoted scalar: a line at column 0 is left to js-yaml',
    text: "a: 'one\n---\n'\n",
    translated: false,
  },
  { name: 'multi-line quoted scalar: unterminated is left to js-yaml', text: "a: 'one\n  two\n", translated: false },
  { name: 'multi-line quoted scalar as a key is left to js-yaml', text: "- 'one\n  two': 1\n", translated: false },
  {
    name: 'multi-line quoted scalar: more after it is left to js-yaml',
    text: "a: 'one\n  two' x\n",
    translated: false,
  },
  { name: 'tabs are left to js-yaml', text: 'a:\tb\n', translated: false },
  { name: 'a carriage return inside a line is left to js-yaml', text: 'a: b\rc: d\n', translated: false },
  { name: 'a byte order mark is left to js-yaml', text: '\uFEFFa: 1\n', translated: false },
  { name: 'control characters are left to js-yaml (which refuses them)', text: 'a: "x\u0001"\n', translated: false },
  { name: 'duplicate keys are left to js-yaml (which refuses them)', text: 'a: 1\na: 2\n', translated: false },
  { name: 'duplicate keys after resolution are left to js-yaml', text: '1: a\n0x1: b\n', translated: false },
  {
    name: 'the same key in nested and sibling mappings is no duplicate',
    text: 'a:\n  a:\n    a: 1\n  b: 2\nb:\n- a: 1\n  b: {}\n- a: 2\n  b:\n    a: 3\n',
    translated: true,
  },
  {
    name: 'a duplicate key after a nested mapping is left to js-yaml',
    text: 'a:\n  x: 1\n  y: 2\nb: 1\na: 3\n',
    translated: false,
  },
  {
    name: 'twenty keys, none twice',
    text: Array.from({ length: 20 }, (_, i) => `k${i}:\n  k${i}: ${i}\n`).join(''),
    translated: true,
  },
  {
    name: 'a duplicate among twenty keys is left to js-yaml',
    text: `${Array.from({ length: 20 }, (_, i) => `k${i}: ${i}\n`).join('')}k3: x\n`,
    translated: false,
  },
  { name: 'null and ~ are the same key', text: 'null: a\n~: b\n', translated: false },
  { name: 'the merge key and __proto__ are left to js-yaml', text: '<<: 1\n', translated: false },
  { name: '__proto__ is left to js-yaml', text: '__proto__: 1\n', translated: false },
  { name: 'odd indentation is left to js-yaml', text: 'a:\n    b: 1\n  c: 2\n', translated: false },
  {
    name: "a `- ` at a mapping's indentation after a value is left to js-yaml",
    text: 'a: 1\n- b\n',
    translated: false,
  },
  { name: 'key: value: is left to js-yaml', text: 'a: b: c\n', translated: false },
  {
    name: 'a value after a key on the same line starting with - is left to js-yaml',
    text: 'a: - b\n',
    translated: false,
  },
  { name: 'a top-level scalar is left to js-yaml', text: 'just text\n', translated: false },
  { name: 'directives are left to js-yaml', text: '%YAML 1.2\n---\na: 1\n', translated: false },
  { name: 'a document marker inside is left to js-yaml', text: 'a: 1\n--- b: 2\n', translated: false },
  {
    name: 'nesting deeper than the translator reads is left to js-yaml',
    text: `${Array.from({ length: 70 }, (_, i) => `${' '.repeat(i * 2)}k:`).join('\n')} 1\n`,
    translated: false,
  },
  { name: 'a comment without a space after a quoted scalar is left to js-yaml', text: 'a: "x"#c\n', translated: false },
  // js-yaml readBlockSequence: after an empty entry, a `- ` line indented less is the next entry.
  {
    name: 'an empty entry followed by a less indented entry is left to js-yaml',
    text: 'a:\n  - - x\n    - \n  - - y\n',
    translated: false,
  },
  {
    name: 'an empty entry followed by an entry at column 0 is left to js-yaml',
    text: '- - x\n  -\n- y\n',
    translated: false,
  },
  {
    name: 'an empty entry followed by an entry at its own indentation',
    text: '- - x\n  -\n  - y\n- z\n',
    translated: true,
  },
];

for (const c of CASES) {
  test(`YAML to JSON: ${c.name}`, () => {
    assert.equal(agrees(c.text, c.name), c.translated, c.translated ? 'translated' : 'left to js-yaml');
  });
}

yamlSweeps('quick');

test("YAML to JSON: the mutation fuzzer's YAML mutants read as js-yaml reads them", () => {
  const corpus = readCorpus('demo', 'fixtures/demo');
  let yamlMutants = 0;
  for (let index = 0; index < 8; index++) {
    const m = makeMutant(mutantRng(1301, index), corpus);
    if (m.format !== 'yaml') continue;
    yamlMutants++;
    const { stream, whole } = bothWays(m.text);
    assert.deepStrictEqual(stream, whole, `mutant ${index}`);
    for (const d of documentsOf(m.text)) agrees(d.body, `mutant ${index}`);
  }
  assert.ok(yamlMutants > 0);
});

const BAD = [
  'a: [1, 2\n',
  'a: "open\n',
  'a:\n  b: 1\n c: 2\n',
  'a: 1\na: 2\n',
  'a: b: c\n',
  'a: *nope\n',
  '- a\nb: 1\n',
  'a:\tb\n\tc: d\n',
  'a: |0\n  x\n',
  'a: "\\q"\n',
  'a: |\n      \n  x\n',
  'a: | x\n  y\n',
];
for (const [i, text] of BAD.entries()) {
  test(`YAML to JSON: bad YAML ${i + 1} fails with js-yaml's error, at the file's line`, () => {
    const { stream, whole } = bothWays(`kind: Pod\n---\n${text}`);
    assert.ok('error' in whole, 'js-yaml refuses it');
    assert.deepStrictEqual(stream, whole);
  });
}
