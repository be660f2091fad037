// Fitting the terminal from the command line: --color=auto|always|never (and --no-color,
// NO_COLOR, TERM=dumb), prose wrapped only when stdout is a terminal, tables cut to its width in
// colour as without.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { capturingIo } from '../harness.js';
import { main } from '../../src/cli/main.js';
import { displayWidth, stripAnsi } from '../../src/render/wrap.js';
import { programName } from '../../src/cli/program-name.js';

const DEMO = ['-f', 'fixtures/demo', '--now', '2026-11-29T12:00:00Z'];
const ESC = '\u001b[';

async function run(argv: string[], options: { tty?: boolean; columns?: number; env?: Record<string, string> } = {}) {
  const { io, output } = capturingIo({
    tty: options.tty ?? false,
    ...(options.columns ? { columns: options.columns } : {}),
    ...(options.env ? { env: options.env } : {}),
  });
  const code = await main(argv, io, () => new Date('2026-11-29T12:00:00Z'));
  return { code, ...output() };
}

const COLOUR_CASES: { name: string; args: string[]; tty: boolean; env?: Record<string, string>; colour: boolean }[] = [
  { name: 'auto on a terminal', args: [], tty: true, colour: true },
  { name: 'auto when piped', args: [], tty: false, colour: false },
  { name: '--color=always when piped', args: ['--color=always'], tty: false, colour: true },
  { name: '--color=never on a terminal', args: ['--color=never'], tty: true, colour: false },
  { name: '--no-color on a terminal', args: ['--no-color'], tty: true, colour: false },
  { name: 'NO_COLOR on a terminal', args: [], tty: true, env: { NO_COLOR: '1' }, colour: false },
  { name: 'TERM=dumb on a terminal', args: [], tty: true, env: { TERM: 'dumb' }, colour: false },
  { name: '--color=always beats NO_COLOR', args: ['--color=always'], tty: true, env: { NO_COLOR: '1' }, colour: true },
  { name: '--color=auto on a terminal', args: ['--color=auto'], tty: true, colour: true },
];
for (const c of COLOUR_CASES) {
  test(`colour: ${c.name}`, async () => {
    const r = await run(['scan', ...DEMO, ...c.args], { tty: c.tty, ...(c.env ? { env: c.env } : {}) });
    assert.equal(r.stdout.includes(ESC), c.colour, r.stderr);
  });
}

test('colour: --color takes its value, never the next argument', async () => {
  const r = await run(['why', '--color', 'logging/fluent-bit', ...DEMO]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /^error: option '--color <when>' argument 'logging\/fluent-bit' is invalid\. Allowed choices are auto, always, never\.\n$/,
  );
});

test('colour: --color=sometimes is a usage error naming the choices', async () => {
  const r = await run(['scan', ...DEMO, '--color=sometimes']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--color.*Allowed choices are auto, always, never/);
});

test('prose is wrapped to the terminal, never when piped', async () => {
  // -o wide: a command too wide for the terminal is kept whole there (the default cuts it, below).
  const argv = ['why', 'kube-system/calico-node', 'worker-5', ...DEMO, '-o', 'wide'];
  const terminal = await run(argv, { tty: true, columns: 80 });
  // Only a command to copy, alone on its line, may be wider (with -o wide).
  for (const line of terminal.stdout.split('\n'))
    assert.ok(displayWidth(line) < 80 || /^ +kubectl \S+( \S+)*$/.test(line), `wider than 80 columns: ${line}`);
  const piped = await run(argv, { columns: 80 });
  assert.ok(
    piped.stdout.split('\n').some((l) => l.length > 200),
    'a fix stays on one line when piped',
  );
  const words = (s: string) => stripAnsi(s).split(/\s+/).filter(Boolean);
  assert.deepEqual(words(terminal.stdout), words(piped.stdout), 'wrapping moves words, never splits or drops one');
});

test('a table in colour is cut to the terminal as the plain one is', async () => {
  const argv = ['nodes', 'logging/fluent-bit', ...DEMO];
  const coloured = await run(argv, { tty: true, columns: 80 });
  const plain = await run([...argv, '--no-color'], { tty: true, columns: 80 });
  assert.ok(coloured.stdout.includes(ESC));
  assert.equal(stripAnsi(coloured.stdout), plain.stdout);
  for (const line of coloured.stdout.split('\n')) assert.ok(displayWidth(line) < 80, `wider than 80 columns: ${line}`);
});

async function runAs(programName: string, argv: string[]) {
  const { io, output } = capturingIo();
  const code = await main(argv, { ...io, programName }, () => new Date('2026-11-29T12:00:00Z'));
  return { code, ...output() };
}

test('the plugin name: run as kubectl-ds_doctor, usage, examples and hints say kubectl ds-doctor', async () => {
  assert.equal(programName('/usr/local/bin/kubectl-ds_doctor'), 'kubectl ds-doctor');
  assert.equal(programName('C:\\tools\\kubectl-ds_doctor.exe'), 'kubectl ds-doctor');
  assert.equal(programName('/usr/lib/node_modules/ds-doctor/bin/ds-doctor.js'), 'ds-doctor');
  const help = await runAs('kubectl ds-doctor', ['--help']);
  assert.match(help.stdout, /^Usage: kubectl ds-doctor \[options\] \[command\]/);
  assert.doesNotMatch(help.stdout, /(?<!kubectl )ds-doctor (scan|why|rollout)/);
  const why = await runAs('kubectl ds-doctor', ['why', '--help']);
  assert.match(why.stdout, /^Usage: kubectl ds-doctor why /);
  const scan = await runAs('kubectl ds-doctor', ['scan', ...DEMO]);
  assert.match(scan.stdout, /^ {2}kubectl ds-doctor why logging\/fluent-bit /m);
  assert.doesNotMatch(scan.stdout, /kubectl kubectl/);
  const plain = await runAs('ds-doctor', ['scan', ...DEMO]);
  assert.match(plain.stdout, /^ {2}ds-doctor why logging\/fluent-bit /m);
});

test("scan's next step names the DaemonSet in the worst health, not a template", async () => {
  const r = await run(['scan', ...DEMO]);
  assert.doesNotMatch(r.stdout, /<namespace>/);
  assert.match(
    r.stdout,
    /^Next:\n {2}ds-doctor rollout logging\/fluent-bit +# what holds its rollout\n {2}ds-doctor why logging\/fluent-bit +# the reason on each node$/m,
  );
});

const TYPOS: [string, string[], RegExp][] = [
  ['a command', ['scna'], /^error: unknown command 'scna' \(did you mean "scan"\?\)\n$/],
  [
    'a flag',
    ['scan', '--namespce', 'x', ...DEMO],
    /^error: unknown option '--namespce' \(did you mean "--namespace"\?\)\n$/,
  ],
  [
    'a flag of one command',
    ['impact', 'kube-system/calico-node', '--cascad', 'orphan', ...DEMO],
    /^error: unknown option '--cascad' \(did you mean "--cascade"\?\)\n$/,
  ],
  ['nothing like any', ['frobnicate'], /^error: unknown command 'frobnicate'\n$/],
];
for (const [name, argv, re] of TYPOS) {
  test(`typos: ${name} gets commander's suggestion on the error's one line`, async () => {
    const r = await run(argv);
    assert.equal(r.code, 2);
    assert.match(r.stderr, re);
  });
}

test('a command too wide for the terminal: cut after its first words with a pointer by default, whole with -o wide or piped', async () => {
  const argv = ['why', 'kube-system/calico-node', 'worker-5', ...DEMO];
  const terminal = await run(argv, { tty: true, columns: 80 });
  assert.match(terminal.stdout, /^ +kubectl patch daemonset calico-node -n … \(the whole command: -o wide\)$/m);
  const piped = await run(argv);
  assert.match(piped.stdout, /kubectl patch daemonset calico-node -n kube-system --type json -p '\[\{"op":"add"/);
});
