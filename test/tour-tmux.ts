// The demo tour in a real terminal: tmux at 80 and 120 columns, colour on (stdout a terminal, as
// an SRE runs it). Each command of the README's tour runs in its own tmux window; the screen is
// read back with tmux's capture-pane, once row by row and once with the rows the terminal wrapped
// joined (-J): the two must agree, so no line is wider than the terminal. rollout and impact must
// fit their row budgets at 80 columns, and the screens match the golden ones
// (test/cli/golden/tour-<columns>.txt) and the README's tour (UPDATE_GOLDEN=1 rewrites both). Without tmux the test
// says so in one line and is skipped; .ci/run installs tmux first, so CI always runs it.
// npm test runs the tour at 80 columns, the README's width and the one the row budgets are set
// for (test/cli/tour-tmux.test.ts); the slow tier at 120 (test/slow/tour-tmux.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const GOLDEN = 'test/cli/golden';
const UPDATE = process.env['UPDATE_GOLDEN'] === '1';

/** The tour: the commands of the README's tour, on the demo dump; the row budget at 80 columns where the issue sets one. */
const TOUR: { name: string; args: string; budget80?: number }[] = [
  { name: 'scan', args: 'scan -f fixtures/demo' },
  { name: 'why-node', args: 'why kube-system/calico-node worker-5 -f fixtures/demo' },
  { name: 'why', args: 'why kube-system/ebs-csi-node -f fixtures/demo' },
  { name: 'nodes', args: 'nodes logging/fluent-bit -f fixtures/demo' },
  { name: 'node', args: 'node worker-5 -f fixtures/demo' },
  { name: 'rollout', args: 'rollout logging/fluent-bit -f fixtures/demo', budget80: 24 },
  { name: 'impact', args: 'impact kube-system/calico-node -f fixtures/demo', budget80: 30 },
  { name: 'plan', args: 'plan -f fixtures/plan/calico-node-selector.yaml --cluster-dump fixtures/demo' },
  { name: 'lint', args: 'lint -f fixtures/demo' },
];

/** Rows of each window: more than any answer, so that nothing scrolls off. */
const HEIGHT = 200;

/** The judging note each command writes on stderr, which the README leaves out (it says so once). */
const NOTE = /^note: judging the input at |^ {2}--now to choose the time\)$/;

/**
 * The README's tour shows the 80-column screens: each of its console blocks that runs a command of
 * the tour holds that screen (without the stderr note), or its first rows and a last line `…`.
 * UPDATE_GOLDEN=1 rewrites the blocks, keeping how many rows each shows.
 */
function readmeTour(screens: Map<string, string[]>): void {
  const readme = readFileSync('README.md', 'utf8');
  let found = 0;
  const updated = readme.replace(/```console\n\$ ds-doctor (.*)\n([^]*?)```/g, (block, args: string, body: string) => {
    const rows = screens.get(args)?.filter((l) => !NOTE.test(l));
    if (!rows) return block;
    found++;
    const shown = body.replace(/\n$/, '').split('\n');
    const cut = shown[shown.length - 1] === '…';
    const want = cut ? [...rows.slice(0, shown.length - 1), '…'] : rows;
    if (!UPDATE)
      assert.deepEqual(
        shown,
        want,
        `README.md: the tour's block of ds-doctor ${args} is not its 80-column screen (UPDATE_GOLDEN=1 rewrites it)`,
      );
    return `\`\`\`console\n$ ds-doctor ${args}\n${want.join('\n')}\n\`\`\``;
  });
  assert.ok(found >= 5, `README.md shows ${found} screens of the tour`);
  if (UPDATE && updated !== readme) writeFileSync('README.md', updated);
}

function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const tmuxMissing = hasTmux() ? false : 'tmux is not installed (.ci/run installs it): the terminal tour is not run';
if (tmuxMissing) console.log(`# ${tmuxMissing}`);

interface Screen {
  /** The rows the command wrote (stdout and stderr), as the terminal shows them, colour codes removed. */
  rows: string[];
  /** The same with the rows the terminal wrapped joined: one entry per line the program wrote. */
  lines: string[];
  /** Whether the screen held colour codes. */
  coloured: boolean;
  status: number;
}

/** Runs one command in a new tmux window of `columns` × HEIGHT and reads its screen once it has exited. */
async function screenOf(
  tmux: (...args: string[]) => Promise<string>,
  session: string,
  name: string,
  args: string,
): Promise<Screen> {
  // NO_COLOR from the caller's environment would turn colour off: the tour is about colour on.
  await tmux(
    'new-window',
    '-d',
    '-t',
    session,
    '-n',
    name,
    '-c',
    resolve('.'),
    `env -u NO_COLOR TERM=xterm-256color ${process.execPath} bin/ds-doctor.js ${args}`,
  );
  const target = `${session}:${name}`;
  for (let i = 0; ; i++) {
    const [dead, status] = (await tmux('display-message', '-p', '-t', target, '#{pane_dead} #{pane_dead_status}'))
      .trim()
      .split(' ');
    if (dead === '1') {
      const clean = (text: string) => {
        const all = text.split('\n').map((l) => l.trimEnd());
        const end = all.findIndex((l) => l.startsWith('Pane is dead'));
        const body = all.slice(0, end < 0 ? all.length : end);
        while (body.length && body[body.length - 1] === '') body.pop();
        return body;
      };
      // From the start of the history (-S -): the whole output, also when the window was resized after it started.
      const rows = clean(await tmux('capture-pane', '-p', '-S', '-', '-t', target));
      const lines = clean(await tmux('capture-pane', '-p', '-J', '-S', '-', '-t', target));
      const coloured = (await tmux('capture-pane', '-p', '-e', '-S', '-', '-t', target)).includes('\u001b[');
      await tmux('kill-window', '-t', target);
      return { rows, lines, coloured, status: Number(status ?? '0') };
    }
    if (i > 600) throw new Error(`${args}: still running after 30s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Registers the tour at the given widths (side by side, each in its own tmux session). */
export function tourTest(widths: number[]): void {
  test(
    `the demo tour in tmux at ${widths.join(' and ')} columns, colour on: no line wrapped by the terminal, answers within their budgets`,
    { skip: tmuxMissing },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ds-doctor-tmux-'));
      const socket = join(dir, 'tmux.sock');
      const tmux = async (...args: string[]) =>
        (await run('tmux', ['-S', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' })).stdout;
      try {
        // The two widths run side by side, each in its own session.
        const tour = async (width: number) => {
          const session = `tour${width}`;
          await tmux('new-session', '-d', '-s', session, '-x', String(width), '-y', String(HEIGHT));
          // The server is this test's own (-S): global options touch nothing else.
          await tmux('set-option', '-g', 'status', 'off');
          await tmux('set-option', '-g', 'remain-on-exit', 'on');
          const golden: string[] = [];
          const screens = new Map<string, string[]>();
          for (const step of TOUR) {
            const screen = await screenOf(tmux, session, step.name, step.args);
            const where = `ds-doctor ${step.args} at ${width} columns`;
            assert.ok(
              screen.status === 0 || screen.status === 1,
              `${where}: exit ${screen.status}\n${screen.rows.join('\n')}`,
            );
            assert.ok(screen.coloured, `${where}: colour is on`);
            const wrapped = screen.lines.filter((l) => [...l].length > width);
            assert.deepEqual(wrapped, [], `${where}: lines the terminal wrapped`);
            assert.equal(screen.rows.length, screen.lines.length, `${where}: rows the terminal wrapped`);
            if (width === 80 && step.budget80)
              assert.ok(
                screen.rows.length <= step.budget80,
                `${where}: ${screen.rows.length} rows, more than ${step.budget80}\n${screen.rows.join('\n')}`,
              );
            golden.push(`$ ds-doctor ${step.args}   # ${screen.rows.length} rows`, ...screen.rows, '');
            screens.set(step.args, screen.rows);
          }
          if (width === 80) readmeTour(screens);
          const file = join(GOLDEN, `tour-${width}.txt`);
          const text = golden.join('\n');
          if (UPDATE || !existsSync(file)) {
            if (!UPDATE) assert.fail(`${file} is missing: run with UPDATE_GOLDEN=1 and review it`);
            writeFileSync(file, text);
          } else {
            assert.equal(text, readFileSync(file, 'utf8'), `${file} differs (UPDATE_GOLDEN=1 rewrites it)`);
          }
        };
        await Promise.all(widths.map(tour));
      } finally {
        await tmux('kill-server').catch(() => undefined);
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
}
