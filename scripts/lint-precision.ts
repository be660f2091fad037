/**
 * Lint precision and recall on the vendor corpora (`../shared/vendor/corpus-*`), against the
 * hand-judged expectations in test/lint-precision/<corpus>.json (scripts/lib/lint-precision.ts
 * says how they count).
 *
 *   node dist/scripts/lint-precision.js            # the table, and every false positive, miss and unjudged finding
 *   node dist/scripts/lint-precision.js --dump     # every finding (info too) with its message, to judge
 *   node dist/scripts/lint-precision.js corpus-c   # one corpus
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  corpusFiles,
  findingKey,
  lintFile,
  precision,
  readExpectations,
  recall,
  scoreCorpus,
} from './lib/lint-precision.js';
import { ROOT } from './lib/fixtures.js';

const VENDOR = join(ROOT, '..', 'shared', 'vendor');
const args = process.argv.slice(2);
const dump = args.includes('--dump');
const named = args.filter((a) => !a.startsWith('--'));
const corpora = named.length ? named : ['corpus-a', 'corpus-b', 'corpus-c'];

function percent(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

if (!existsSync(VENDOR)) {
  console.error(`lint-precision: no vendor corpus at ${VENDOR}: put shared/ beside the checkout`);
  process.exit(2);
}

for (const corpus of corpora) {
  const dir = join(VENDOR, corpus);
  if (dump) {
    for (const file of corpusFiles(dir)) {
      for (const [name, findings] of await lintFile(join(dir, file))) {
        console.log(`== ${corpus}/${file} ${name}`);
        for (const f of findings) console.log(`  ${f.severity.padEnd(7)} ${findingKey(f)}\n          ${f.message}`);
      }
    }
    continue;
  }
  const expectFile = join(ROOT, 'test', 'lint-precision', `${corpus}.json`);
  if (!existsSync(expectFile)) {
    console.error(`lint-precision: no expectation file ${expectFile}`);
    process.exitCode = 2;
    continue;
  }
  const s = await scoreCorpus(dir, readExpectations(expectFile));
  console.log(
    `${corpus}: ${s.manifests} manifests, ${s.daemonSets.length} DaemonSets; warnings+errors ${s.truePositives + s.falsePositives + s.unjudged}: ${s.truePositives} true, ${s.falsePositives} false, ${s.unjudged} unjudged; missed ${s.missed}; precision ${percent(precision(s))}, recall ${percent(recall(s))}`,
  );
  for (const ds of s.daemonSets) {
    for (const [what, keys] of [
      ['false positive', ds.falsePositives],
      ['missed', ds.missed],
      ['unjudged', ds.unjudged],
    ] as const) {
      for (const k of keys) console.log(`  ${what.padEnd(14)} ${ds.file} ${ds.daemonSet}: ${k}`);
    }
  }
  for (const f of s.unlisted) console.log(`  unlisted       ${f}: no judgement in ${expectFile}`);
  for (const f of s.absent) console.log(`  absent         ${f}: judged but not in ${dir}`);
}
