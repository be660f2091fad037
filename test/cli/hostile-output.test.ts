// Terminal escape injection (issue 13, class 1): the demo dump with hostile text in every field
// people read (event messages, node-condition messages, container waiting and termination
// messages, images, change-cause annotations, object names), through every command and every
// output format. Human formats must never pass a control character to the terminal; JSON and
// YAML keep the data but escape the bidi and C1 controls.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { runCli } from '../harness.js';

/** The hostile payloads, each what an attacker would put in a message. */
export const PAYLOADS: Record<string, string> = {
  'OSC 0 retitles the terminal': '\u001b]0;owned\u0007',
  'CSI clears the screen': '\u001b[2J\u001b[H',
  'SGR recolours': '\u001b[31mred',
  'OSC 8 plants a hyperlink': '\u001b]8;;https://evil.example/\u001b\\click\u001b]8;;\u001b\\',
  'CR overwrites the line': 'visible\rhidden',
  'LF forges a line': 'first\nerror: forged line',
  'BS erases': 'abc\b\b\b',
  NUL: 'a\u0000b',
  DEL: 'a\u007fb',
  'C1 CSI (U+009B)': '\u009b2J',
  'C1 OSC (U+009D)': '\u009d0;t\u009c',
  'RLO reverses': '\u202eevil',
  'LRI/PDI isolate': '\u2066iso\u2069',
  'LS line separator': 'a\u2028b',
  'markdown link and HTML': '| cell | [click](https://evil.example/) <img src=x onerror=alert(1)> &#x202e; `code`',
};
const HOSTILE = Object.values(PAYLOADS).join(' ');

const DEMO = 'fixtures/demo';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The demo dump with hostile text in every field a person reads, as one JSON List. */
function hostileDump(): string {
  const items: Obj[] = [];
  for (const file of readdirSync(DEMO)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    for (const doc of yaml.loadAll(readFileSync(join(DEMO, file), 'utf8')) as Obj[])
      items.push(...(doc['items'] ?? [doc]));
  }
  for (const o of items) {
    if (o['kind'] === 'Event') o['message'] = `${o['message'] ?? ''} ${HOSTILE}`;
    if (o['kind'] === 'Node')
      for (const c of o['status']?.conditions ?? []) c.message = `${c.message ?? ''} ${HOSTILE}`;
    if (o['kind'] === 'Pod') {
      for (const s of [...(o['status']?.containerStatuses ?? []), ...(o['status']?.initContainerStatuses ?? [])]) {
        for (const st of [s.state, s.lastState]) {
          if (st?.waiting) st.waiting.message = `${st.waiting.message ?? ''} ${HOSTILE}`;
          if (st?.terminated) st.terminated.message = `${st.terminated.message ?? ''} ${HOSTILE}`;
        }
      }
    }
    if (o['kind'] === 'ControllerRevision') {
      o['metadata'].annotations = {
        ...o['metadata'].annotations,
        'kubernetes.io/change-cause': `kubectl set image ${HOSTILE}`,
      };
      for (const c of o['data']?.spec?.template?.spec?.containers ?? [])
        c.image = `${c.image}${PAYLOADS['OSC 0 retitles the terminal']}${PAYLOADS['RLO reverses']}`;
    }
    if (o['kind'] === 'DaemonSet' && o['metadata'].name === 'calico-node') {
      // Impact prints the images it infers roles from; lint prints container images.
      for (const c of o['spec'].template.spec.containers)
        c.image = `${c.image}${PAYLOADS['CSI clears the screen']}${PAYLOADS['C1 CSI (U+009B)']}`;
    }
  }
  // A node and a pod whose names carry controls: a dump is not validated by an API server.
  const node = structuredClone(items.find((o) => o['kind'] === 'Node' && o['metadata'].name === 'worker-2')!);
  node.metadata.name = `evil\u001b]0;t\u0007\u202enode`;
  node.metadata.uid = 'uid-evil-node';
  items.push(node);
  const ds = structuredClone(items.find((o) => o['kind'] === 'DaemonSet' && o['metadata'].name === 'node-exporter')!);
  ds.metadata.name = `evil\u001b[2J\u202eds`;
  ds.metadata.uid = 'uid-evil-ds';
  items.push(ds);
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
}

const STDIN = hostileDump();

// Every control character (and bidi/C1) except a line feed, which is our own layout.
const RAW_CONTROL =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/u;
// What JSON and YAML must not hold raw (they escape C0 controls themselves).
const RAW_DATA_CONTROL = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
// Our own colours: SGR sequences chalk writes.
// eslint-disable-next-line no-control-regex
const OUR_SGR = /\u001b\[\d+(;\d+)*m/g;

const COMMANDS: [string, string[]][] = [
  ['scan', ['scan']],
  ['why <ds>', ['why', 'logging/fluent-bit']],
  ['why <ds> <node>', ['why', 'logging/fluent-bit', 'worker-1']],
  ['why <ds> <NotReady node>', ['why', 'kube-system/calico-node', 'worker-5']],
  ['nodes', ['nodes', 'kube-system/calico-node']],
  ['node', ['node', 'worker-5']],
  ['rollout', ['rollout', 'logging/fluent-bit']],
  ['impact', ['impact', 'kube-system/calico-node']],
  ['lint', ['lint']],
];
const FORMATS = ['table', 'wide', 'markdown', 'json', 'yaml'] as const;

function firstRaw(text: string, re: RegExp): string | undefined {
  const m = re.exec(text);
  return m
    ? `U+${m[0].codePointAt(0)!.toString(16).padStart(4, '0')} near ${JSON.stringify(text.slice(Math.max(0, m.index - 40), m.index + 10))}`
    : undefined;
}

/** Every string anywhere in a parsed document. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [k, ...strings(v)]);
  return [];
}

/** The Markdown table rows of a text that do not have as many cells as their header. */
function brokenTableRows(markdown: string): string[] {
  const broken: string[] = [];
  let cells = 0;
  const count = (line: string) => line.replace(/\\\\/g, '').replace(/\\\|/g, '').split('|').length;
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('|')) {
      cells = 0;
      continue;
    }
    if (cells === 0) cells = count(line);
    else if (count(line) !== cells) broken.push(line);
  }
  return broken;
}

for (const [name, argv] of COMMANDS) {
  for (const format of FORMATS) {
    test(`hostile dump: ${name} -o ${format}`, async () => {
      const r = await runCli([...argv, '-f', '-', '-o', format, '--fail-on', 'none'], { stdin: STDIN });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(firstRaw(r.stderr, RAW_CONTROL), undefined, 'stderr');
      if (format === 'json' || format === 'yaml') {
        assert.equal(firstRaw(r.stdout, RAW_DATA_CONTROL), undefined, 'stdout');
        // The data is kept exactly: some string still holds a payload, unescaped.
        const doc = format === 'json' ? JSON.parse(r.stdout) : yaml.load(r.stdout);
        assert.ok(
          strings(doc).some((s) => RAW_CONTROL.test(s)),
          'payload kept as data',
        );
        return;
      }
      assert.equal(firstRaw(r.stdout, RAW_CONTROL), undefined, 'stdout');
      assert.ok(!r.stdout.includes('\u001b'), 'no ESC at all without colour');
      // Visible, not dropped (impact's default shows no evidence, where the payloads are: -o wide does).
      if (!(name === 'impact' && format === 'table'))
        assert.ok(r.stdout.includes('^[') || r.stdout.includes('\\u202e'), 'payload shown escaped');
      if (format === 'markdown') {
        assert.deepEqual(brokenTableRows(r.stdout), [], 'table rows keep their cells');
        assert.ok(!/(^|[^\\])<img/.test(r.stdout), 'no raw HTML');
        assert.ok(!/(^|[^\\])\]\(https:\/\/evil/.test(r.stdout), 'no link');
        assert.ok(!/(^|[^\\])&#x202e;/.test(r.stdout), 'no entity');
      }
    });
  }
}

test('hostile dump: lint -o sarif escapes bidi and C1 controls, keeps the data', async () => {
  const r = await runCli(['lint', '-f', '-', '-o', 'sarif', '--fail-on', 'none'], { stdin: STDIN });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(firstRaw(r.stdout, RAW_DATA_CONTROL), undefined);
  assert.ok(
    strings(JSON.parse(r.stdout)).some((s) => RAW_CONTROL.test(s)),
    'payload kept as data',
  );
});

describe('hostile dump with colour on a terminal: only our own SGR colour sequences reach stdout', () => {
  for (const [name, argv] of COMMANDS) {
    test(`hostile dump with colour: ${name}`, async () => {
      const r = await runCli([...argv, '-f', '-', '--fail-on', 'none'], { stdin: STDIN, tty: true });
      assert.ok(r.stdout.includes('\u001b['), 'colour is on');
      assert.equal(firstRaw(r.stdout.replace(OUR_SGR, ''), RAW_CONTROL), undefined, argv.join(' '));
    });
  }
});

const HOSTILE_ARGS: [string, string[]][] = [
  ['a DaemonSet name argument', ['why', `fluent-bit${PAYLOADS['OSC 0 retitles the terminal']}`, '-f', DEMO]],
  ['a node name argument', ['why', 'logging/fluent-bit', `worker${PAYLOADS['RLO reverses']}`, '-f', DEMO]],
  ['a file name', ['scan', '-f', `fixtures/${PAYLOADS['CSI clears the screen']}nope`]],
  ['an unknown option', ['scan', `--x${PAYLOADS['C1 CSI (U+009B)']}`, '-f', DEMO]],
  ['a bad -o value', ['scan', '-o', `x${PAYLOADS['CR overwrites the line']}`, '-f', DEMO]],
  ['a bad --now', ['scan', '--now', `x${PAYLOADS['LF forges a line']}`, '-f', DEMO]],
];

for (const [what, argv] of HOSTILE_ARGS) {
  test(`hostile argument: ${what} is echoed on one escaped line, exit 2`, async () => {
    const r = await runCli(argv);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(firstRaw(r.stderr, RAW_CONTROL), undefined);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /^error: /);
  });
}

test('a hostile document kind in an error line is escaped', async () => {
  const r = await runCli(['scan', '-f', '-'], { stdin: `kind: [x\u001b[2J\n` });
  assert.equal(r.code, 2);
  assert.equal(firstRaw(r.stderr, RAW_CONTROL), undefined);
});
