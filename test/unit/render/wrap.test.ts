// Fitting text to the terminal: visible width, cutting coloured cells, wrapping prose with a
// hanging indent without splitting a word, commands on their own line, tables that fit.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Chalk } from 'chalk';
import { displayWidth, elided, stripAnsi, truncateVisible, wrapLines } from '../../../src/render/wrap.js';
import { fitColumns, renderTable } from '../../../src/render/table.js';
import { renderContext } from '../../../src/render/context.js';

const red = new Chalk({ level: 1 }).red;

describe('displayWidth', () => {
  const cases: [string, string, number][] = [
    ['plain text', 'node worker-1', 13],
    ['colour codes count nothing', red('✗ CrashLoopBackOff'), 18],
    ['wide characters count two columns', '日本語', 6],
    ['combining marks count nothing', 'e\u0301', 1],
    ['an emoji counts two columns', '\u{1F680}', 2],
  ];
  for (const [name, text, width] of cases) test(name, () => assert.equal(displayWidth(text), width));
});

describe('truncateVisible', () => {
  test('cuts a coloured cell to the same visible text as the plain one, keeping its colour codes', () => {
    const plain = truncateVisible('✗ node(s) had untolerated taint', 12);
    const coloured = truncateVisible(`${red('✗')} node(s) had untolerated taint`, 12);
    assert.equal(plain, '✗ node(s) h…');
    assert.equal(stripAnsi(coloured), plain);
    assert.ok(coloured.includes('\u001b[39m'), 'the colour opened is closed');
  });
  test('leaves text that fits alone', () => assert.equal(truncateVisible(red('ok'), 2), red('ok')));
  test('counts wide characters as two columns', () => assert.equal(truncateVisible('日本語テキスト', 7), '日本語…'));
});

describe('wrapLines', () => {
  const cases: { name: string; first: string; text: string; width: number; hang?: string; want: string[] }[] = [
    {
      name: 'no width: one line',
      first: '  - ',
      text: 'a b c '.repeat(40).trim(),
      width: Infinity,
      want: ['  - ' + 'a b c '.repeat(40).trim()],
    },
    { name: 'fits: one line', first: 'fix: ', text: 'do this', width: 20, want: ['fix: do this'] },
    {
      name: 'hanging indent under the text, never inside a word',
      first: '    evidence: ',
      text: 'node taint node.kubernetes.io/not-ready:NoSchedule (added 2026-11-29T11:40:01Z)',
      width: 60,
      want: [
        '    evidence: node taint',
        '              node.kubernetes.io/not-ready:NoSchedule (added',
        '              2026-11-29T11:40:01Z)',
      ],
    },
    {
      name: 'a token longer than the line stands alone, unsplit',
      first: '- ',
      text: 'see https://example.com/a/very/long/path/that/does/not/fit for more',
      width: 30,
      want: ['- see', '  https://example.com/a/very/long/path/that/does/not/fit', '  for more'],
    },
    {
      name: 'a word too wide for the hanging indent moves left to where it fits, on its own line',
      first: '  ✗ Code  ',
      text: 'volume v: /var/lib/kubelet/plugins_registry is missing',
      width: 40,
      want: ['  ✗ Code  volume v:', '      /var/lib/kubelet/plugins_registry', '          is missing'],
    },
    {
      name: 'a command stands on its own line when the text wraps',
      first: '  1. ',
      text: 'read the logs (kubectl logs -n logging fluent-bit-8z666 --previous), then roll back: kubectl rollout undo daemonset/fluent-bit -n logging',
      width: 60,
      want: [
        '  1. read the logs',
        '     (kubectl logs -n logging fluent-bit-8z666 --previous),',
        '     then roll back:',
        '     kubectl rollout undo daemonset/fluent-bit -n logging',
      ],
    },
    {
      name: "a command's own parentheses do not end it",
      first: '',
      text: 'retry now: kubectl annotate daemonset/x a="$(date +%s)" --overwrite; or wait',
      width: 40,
      want: ['retry now:', 'kubectl annotate daemonset/x a="$(date +%s)" --overwrite;', 'or wait'],
    },
    {
      name: 'a prefix wider than half the line hangs four spaces past its own indent',
      first: '  ! warning  privilege-escalation-allowed  ',
      text: 'container fluent-bit allows privilege escalation and keeps the default capabilities',
      width: 60,
      want: [
        '  ! warning  privilege-escalation-allowed  container',
        '      fluent-bit allows privilege escalation and keeps the',
        '      default capabilities',
      ],
    },
    {
      name: 'spaces inside a line are kept',
      first: '',
      text: 'pod a  Running  ready  revision 1 and more words',
      width: 30,
      want: ['pod a  Running  ready', 'revision 1 and more words'],
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const got = wrapLines(c.first, c.text, c.width, c.hang);
      assert.deepEqual(got, c.want);
    });
  }
  test('a command wider than the line: whole by default, cut after its first words with a pointer when asked', () => {
    const text =
      'fix: kubectl patch daemonset x -n kube-system --type json -p \'[{"op":"add","path":"/spec/template/spec/tolerations/-"}]\'';
    assert.deepEqual(wrapLines('', text, 60), [
      'fix:',
      'kubectl patch daemonset x -n kube-system --type json -p \'[{"op":"add","path":"/spec/template/spec/tolerations/-"}]\'',
    ]);
    assert.deepEqual(wrapLines('', text, 60, undefined, { elideLongCommands: true }), [
      'fix:',
      'kubectl patch daemonset x -n … (the whole command: -o wide)',
    ]);
    assert.equal(elided('kubectl get pods', 60), 'kubectl get pods');
  });
  test('no wrapped line is wider than the width unless it is one unsplittable token', () => {
    const text =
      'the automatic DaemonSet tolerations cover node.kubernetes.io/not-ready only with effect NoExecute, so the controller creates no new pod here';
    for (const width of [30, 41, 57, 80]) {
      for (const line of wrapLines('✗ UntoleratedTaint  ', text, width))
        assert.ok(displayWidth(line) <= width || !line.trim().includes(' '), `${width}: ${line}`);
    }
  });
});

describe('tables fit the terminal with or without colour', () => {
  const headers = ['NODE', 'VERDICT', 'POD', 'READY', 'REVISION', 'REASON'];
  const row = (c: (s: string) => string) => [
    'worker-1',
    c('Healthy'),
    'fluent-bit-bflwj',
    'true',
    '79ccc74f66*',
    `${c('i')} pod(s) on an outdated revision of the DaemonSet`,
  ];
  test('a coloured table is cut exactly as the plain one', () => {
    const plain = renderTable(renderContext({ color: false, columns: 80 }), headers, [row((s) => s)]);
    const ctx = renderContext({ color: true, columns: 80 });
    const coloured = renderTable(ctx, headers, [row(red)]);
    assert.equal(stripAnsi(coloured), stripAnsi(plain));
    for (const line of coloured.split('\n')) assert.ok(displayWidth(line) < 80, line);
  });
  test('wide output never cuts', () => {
    const text = renderTable(renderContext({ color: true, columns: 80, wide: true }), headers, [row(red)]);
    assert.ok(stripAnsi(text).includes('outdated revision of the DaemonSet'));
  });
  test('the last column is cut first, then the widest of the others, none below its header', () => {
    assert.deepEqual(fitColumns(['A', 'B'], [10, 100], 50), [10, 37]);
    assert.deepEqual(fitColumns(['NAMESPACE', 'DAEMONSET', 'REASON'], [11, 30, 60], 60), [11, 24, 20]);
    assert.deepEqual(fitColumns(['A', 'B'], [10, 100], Infinity), [10, 100]);
  });
});
