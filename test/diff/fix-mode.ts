/**
 * `npm run test:diff -- --kind fix`: runs fix scenarios one after the other on the control plane
 * run.ts started, prints a line per scenario (and every failed fix), writes failures to
 * out/<scenario>/, and ends with `fixes: N proved, M failed, K advice-only (not mechanical)` and
 * the same by code. Returns the exit code: 1 on any failed fix or harness error.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import yaml from 'js-yaml';
import { generateFixScenario, renameFixScenario, type FixScenario } from './fix-generate.js';
import { removeFixScenario, runFixScenario, type FixRecord } from './fix-run.js';
import type { RunContext } from './judge.js';
import { HarnessError } from './placement-run.js';

export interface FixRunOptions {
  runs: { seed: number; count: number }[];
  only?: number;
  keep: boolean;
  save: boolean;
  verbose: boolean;
  out: string;
}

function fmtS(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

function recordText(r: FixRecord): string {
  return `${r.result} ${r.source} ${r.code} (${r.severity}) ${r.daemonSet}${r.node ? ` on ${r.node}` : ''}: ${r.detail}${r.applied ? `\n      applied: ${r.applied}` : ''}\n      fix: ${r.fix}`;
}

async function writeArtifacts(dir: string, f: FixScenario, records: FixRecord[], error?: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  const s = f.scenario;
  const head = [
    `# ds-doctor fix scenario ${s.id} (seed ${s.seed}, index ${s.index}): ${f.problem}: ${f.text}`,
    `# reproduce: npm run test:diff -- --kind fix --seed ${s.seed} --only ${s.index}`,
    `# kubelets by image: ${JSON.stringify(f.images)}; later: ${JSON.stringify(f.later)}; alternative ${f.pick}`,
  ].join('\n');
  const objects = [
    ...s.namespaces,
    ...s.quotas,
    ...s.nodes.map((n) => n.object),
    ...s.daemonSets.map((d) => d.object),
    ...(f.rollout ? [{ rolloutTemplate: f.rollout.template }] : []),
  ];
  await fs.writeFile(
    path.join(dir, 'scenario.yaml'),
    `${head}\n${objects.map((o) => yaml.dump(o, { noRefs: true, lineWidth: -1 })).join('---\n')}`,
  );
  await fs.writeFile(
    path.join(dir, 'fixes.txt'),
    `${[...records.map(recordText), ...(error ? [`error: ${error}`] : [])].join('\n')}\n`,
  );
}

export async function runFixMode(ctx: RunContext, o: FixRunOptions): Promise<number> {
  const started = Date.now();
  const all: FixRecord[] = [];
  const byProblem = new Map<string, number>();
  let errors = 0;
  let failedScenarios = 0;
  const total = o.runs.reduce((n, r) => n + (o.only !== undefined ? 1 : r.count), 0);
  let done = 0;
  for (const run of o.runs) {
    const indexes = o.only !== undefined ? [o.only] : Array.from({ length: run.count }, (_, i) => i);
    for (const index of indexes) {
      const base = generateFixScenario(run.seed, index);
      byProblem.set(base.problem, (byProblem.get(base.problem) ?? 0) + 1);
      const t0 = Date.now();
      let f = base;
      let records: FixRecord[] = [];
      let error: string | undefined;
      let retried = false;
      for (let attempt = 0; ; attempt++) {
        try {
          records = (await runFixScenario(ctx, f)).records;
          break;
        } catch (e) {
          if (e instanceof HarnessError && attempt === 0) {
            ctx.log(`  harness: ${e.message}; retrying`);
            retried = true;
            f = renameFixScenario(base, `${base.scenario.id}x`);
            continue;
          }
          error = (e as Error).stack ?? String(e);
          break;
        } finally {
          if (!o.keep)
            await removeFixScenario(ctx, f).catch((e: Error) =>
              ctx.log(`  cleanup of ${f.scenario.id} failed: ${e.message}`),
            );
        }
      }
      // A fix whose problem an earlier fix removed, with a command of its own: the scenario again,
      // that fix first (each distinct command is proved on its own).
      if (!error) {
        const judged = new Set(
          records.filter((r) => r.result === 'proved' || r.result === 'failed').map((r) => r.applied),
        );
        const pending = new Map<string, FixRecord>();
        for (const r of records)
          if (r.result === 'resolved-earlier' && r.applied && !judged.has(r.applied) && !pending.has(r.applied))
            pending.set(r.applied, r);
        let k = 0;
        for (const r of pending.values()) {
          const again = renameFixScenario(f, `${f.scenario.id}f${++k}`);
          const to = (x: string) => x.split(`${f.scenario.id}-`).join(`${again.scenario.id}-`);
          try {
            const rerun = (
              await runFixScenario(ctx, again, {
                source: r.source,
                code: r.code,
                daemonSet: to(r.daemonSet),
                ...(r.node ? { node: to(r.node) } : {}),
              })
            ).records;
            records = records.map((x) => {
              if (x.result !== 'resolved-earlier' || x.applied !== r.applied) return x;
              // The same problem; on the copy a crash may have hit another node first, so else the
              // same code (pod names differ on the copy).
              const same = (z: FixRecord) =>
                z.source === x.source &&
                z.code === x.code &&
                z.daemonSet === to(x.daemonSet) &&
                z.result !== 'resolved-earlier';
              const y = rerun.find((z) => same(z) && z.node === (x.node ? to(x.node) : undefined)) ?? rerun.find(same);
              return y
                ? {
                    ...x,
                    result: y.result,
                    applied: y.applied,
                    detail: `on a fresh copy (${again.scenario.id}${y.node && y.node !== to(x.node ?? '') ? `, node ${y.node}` : ''}), this fix first: ${y.detail}`,
                  }
                : x;
            });
          } catch (e) {
            error = `re-run ${again.scenario.id} for ${r.code}: ${(e as Error).stack ?? String(e)}`;
          } finally {
            if (!o.keep)
              await removeFixScenario(ctx, again).catch((e: Error) =>
                ctx.log(`  cleanup of ${again.scenario.id} failed: ${e.message}`),
              );
          }
        }
      }
      done++;
      all.push(...records);
      const count = (r: string) => records.filter((x) => x.result === r).length;
      const failed = count('failed');
      if (error) errors++;
      if (failed || error) failedScenarios++;
      const status = error
        ? `ERROR: ${error.split('\n')[0]}`
        : `${records.length} fixes: ${count('proved')} proved, ${failed} failed, ${count('advice')} advice, ${count('resolved-earlier')} resolved earlier`;
      process.stdout.write(
        `[${done}/${total}] ${f.scenario.id} fix:${f.problem} (${f.text}), ${f.scenario.nodes.length} nodes: ${status}${retried ? ' (retried)' : ''} (${fmtS(Date.now() - t0)})\n`,
      );
      for (const r of records.filter((x) => x.result === 'failed')) process.stdout.write(`  FAILED ${recordText(r)}\n`);
      if (error && o.verbose) process.stdout.write(`${error}\n`);
      if (failed || error || o.save) {
        const dir = path.join(o.out, f.scenario.id);
        await writeArtifacts(dir, f, records, error);
        if (failed || error)
          process.stdout.write(
            `  written to ${path.relative(process.cwd(), dir)}; reproduce: npm run test:diff -- --kind fix --seed ${f.scenario.seed} --only ${f.scenario.index}\n`,
          );
      }
    }
  }
  const n = (r: string) => all.filter((x) => x.result === r).length;
  const codes = new Map<string, Record<string, number>>();
  for (const r of all) {
    const c = codes.get(r.code) ?? {};
    c[r.result] = (c[r.result] ?? 0) + 1;
    codes.set(r.code, c);
  }
  process.stdout.write(
    `\nscenarios by problem: ${[...byProblem.entries()]
      .sort()
      .map(([p, k]) => `${p} ${k}`)
      .join(', ')}\n`,
  );
  process.stdout.write('fixes by code:\n');
  for (const [code, c] of [...codes.entries()].sort()) {
    process.stdout.write(
      `  ${code}: ${['proved', 'failed', 'advice', 'resolved-earlier']
        .filter((r) => c[r])
        .map((r) => `${c[r]} ${r === 'advice' ? 'advice-only' : r === 'resolved-earlier' ? 'resolved earlier' : r}`)
        .join(', ')}\n`,
    );
  }
  process.stdout.write(
    `\nfixes: ${n('proved')} proved, ${n('failed')} failed, ${n('advice')} advice-only (not mechanical); ${n('resolved-earlier')} resolved by an earlier fix (not applied); ${done} scenarios${errors ? `, ${errors} harness errors` : ''}; ${fmtS(Date.now() - started)}\n`,
  );
  process.stdout.write(`${done - failedScenarios} passed, ${failedScenarios} failed\n`);
  return n('failed') || errors ? 1 : 0;
}
