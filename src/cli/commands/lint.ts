/** `lint [daemonset]`: best-practice findings for DaemonSet manifests, live or from files, as text, JSON/YAML, Markdown or SARIF; live, of several clusters. */
import { resolve } from 'node:path';
import { exitFor } from '../exit-code.js';
import { VERSION } from '../version.js';
import { daemonSetsInScope, resolveDaemonSet, scopeText } from '../scope.js';
import type { CommandSpec } from './spec.js';
import { Option } from 'commander';
import type { Severity } from '../../model/severity.js';
import { addScriptingOptions, daemonSetSelectorOf, writeNames } from '../scripting.js';
import { atOrAbove } from '../../model/severity.js';
import type { LintReport, ObjectRef } from '../../model/results.js';
import { InputError } from '../../model/errors.js';
import type { CommandContext } from '../context.js';
import { addAllContextsOption, contextsToRead, eachContext } from '../contexts.js';

/** One input's (or one cluster's) lint, the DaemonSets it covered, and the exit code it gives. */
async function lintOne(
  ctx: CommandContext,
  name: string | undefined,
  raw: Record<string, unknown>,
): Promise<{ result: { report: LintReport; refs: ObjectRef[] }; exitCode: number }> {
  const { lint } = await import('../../lint/lint.js');
  const selector = daemonSetSelectorOf(raw);
  const { snapshot, defaultNamespace } = await ctx.load({
    ...(name ? { daemonSet: name } : {}),
    kinds: ['PodDisruptionBudget', 'PriorityClass', 'CSIDriver'],
    ...(selector && !name ? { daemonSetSelector: selector.text } : {}),
  });
  const daemonSets = (
    name
      ? [resolveDaemonSet(snapshot, name, ctx.opts, defaultNamespace)]
      : daemonSetsInScope(snapshot, ctx.opts, defaultNamespace)
  ).filter((d) => !selector || selector.matches(d));
  if (!daemonSets.length) ctx.note(`no DaemonSets in ${scopeText(ctx.opts, defaultNamespace)}: nothing to lint`);
  const report = lint(snapshot, daemonSets);
  const refs = daemonSets.map((d) => ({ namespace: d.metadata?.namespace ?? '', name: d.metadata?.name ?? '' }));
  const exitCode = exitFor(ctx.opts, {
    error: report.findings.some((f) => f.severity === 'error'),
    warning: report.findings.some((f) => f.severity === 'warning'),
  });
  return { result: { report, refs }, exitCode };
}

/** The `lint` command of the CLI. */
export const lintCommand: CommandSpec = {
  usage: 'lint [daemonset]',
  description:
    'Best-practice findings for DaemonSets (works on bare manifests; cluster rules use nodes, PDBs and priority classes when present)',
  examples: [
    'ds-doctor lint -f manifests/',
    'ds-doctor lint -f manifests/ -o sarif > ds-doctor.sarif',
    'ds-doctor lint -f manifests/ -o junit > lint.xml',
    'kubectl ds-doctor lint kube-system/calico-node --fail-on warning',
    'kubectl ds-doctor lint -A -l app.kubernetes.io/part-of=monitoring -o name',
    'kubectl ds-doctor lint -A --all-contexts',
  ],
  formats: ['table', 'wide', 'json', 'yaml', 'markdown', 'sarif', 'name', 'junit'],
  multiContext: true,
  options: (cmd) => {
    addScriptingOptions(cmd).addOption(
      new Option(
        '--min-severity <level>',
        'show findings at or above this level in table, wide and markdown output (JSON, YAML and SARIF keep every finding)',
      )
        .choices(['error', 'warning', 'info'])
        .default('warning'),
    );
    addAllContextsOption(cmd);
  },
  async run(ctx, args, raw) {
    // Loaded when the command runs, so that --help and --version start without them.
    const { renderLint } = await import('../../render/lint.js');
    const contexts = await contextsToRead(ctx, raw);
    if (contexts && ['sarif', 'name', 'junit'].includes(ctx.opts.output)) {
      throw new InputError(
        `-o ${ctx.opts.output}: one cluster at a time (its locations, names or test cases would not say which cluster)`,
      );
    }
    let report: LintReport;
    let refs: ObjectRef[] = [];
    let exitCode: number;
    if (contexts) {
      const { combineLints, worstExitCode } = await import('../../analyze/contexts.js');
      const parts = await eachContext(ctx, contexts, async (one) => {
        const r = await lintOne(one, args[0], raw);
        return { result: r.result.report, exitCode: r.exitCode };
      });
      report = combineLints(parts);
      exitCode = worstExitCode(parts);
    } else {
      const one = await lintOne(ctx, args[0], raw);
      ({ report, refs } = one.result);
      exitCode = one.exitCode;
    }
    const minSeverity = (raw['minSeverity'] as Severity | undefined) ?? 'warning';
    if (ctx.opts.output === 'name') {
      // The DaemonSets with a finding at or above --min-severity, once each, in report order.
      const named = report.findings.filter((f) => atOrAbove(f.severity, minSeverity)).map((f) => f.daemonSet.name);
      writeNames(ctx, [...new Set(named)]);
    } else if (ctx.opts.output === 'junit') {
      const [{ RULES }, { renderLintJunit }] = await Promise.all([
        import('../../lint/registry.js'),
        import('../../render/junit.js'),
      ]);
      ctx.io.stdout.write(
        renderLintJunit(
          report,
          refs,
          RULES.map((r) => r.meta.id),
          { failOn: ctx.opts.failOn, now: ctx.opts.now },
        ),
      );
    } else if (ctx.opts.output === 'sarif') {
      const [{ RULES }, { renderSarif }] = await Promise.all([
        import('../../lint/registry.js'),
        import('../../render/sarif.js'),
      ]);
      // File locations are written relative to the directory ds-doctor runs in, as code scanning expects.
      ctx.io.stdout.write(
        renderSarif(
          report,
          RULES.map((r) => r.meta),
          { toolVersion: VERSION, cwd: resolve('.') },
        ),
      );
    } else {
      ctx.emit(report, (d, r, md) => renderLint(d, r, md, { minSeverity }));
    }
    return exitCode;
  },
};
