/**
 * Lint precision and recall against hand-judged expectations (test/lint-precision/<corpus>.json).
 *
 * For every manifest of a vendor corpus the expectation file records, per DaemonSet, which
 * warnings and errors (as `"<rule> <path>"`, the path without `spec.template.spec.`) are true
 * (the manifest has the problem, for its role: a warning or error is right) and which are false
 * (a warning or error there is wrong: the role needs it, the message is untrue, the fix would
 * break it). A true entry that lint does not report as a warning or error is a miss; info
 * findings are not counted either way, since a role's info is what a false warning becomes.
 *
 * precision = true warnings+errors / all warnings+errors; recall = true warnings+errors reported /
 * all true entries. A warning or error without a judgement is listed as unjudged: it must be
 * judged before the figures mean anything.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadFiles } from '../../src/load/files.js';
import { lint } from '../../src/lint/lint.js';
import type { LintFinding } from '../../src/model/results.js';

/** Judgements of one DaemonSet: finding key → why it is true (or false). */
export interface DaemonSetJudgement {
  true?: Record<string, string>;
  false?: Record<string, string>;
}

/** One corpus's expectation file. */
export interface Expectations {
  corpus: string;
  /** When and how the judgements were made (e.g. before the rules were tuned to this corpus). */
  judged: string;
  /** manifest file → "namespace/name" → judgements. */
  manifests: Record<string, Record<string, DaemonSetJudgement>>;
}

/** What lint reported on one DaemonSet, measured against its judgements. */
export interface DaemonSetScore {
  file: string;
  daemonSet: string;
  truePositives: string[];
  falsePositives: string[];
  missed: string[];
  unjudged: string[];
}

export interface CorpusScore {
  corpus: string;
  manifests: number;
  daemonSets: DaemonSetScore[];
  truePositives: number;
  falsePositives: number;
  missed: number;
  unjudged: number;
  /** Files of the corpus the expectation file does not list, and listed files that are absent. */
  unlisted: string[];
  absent: string[];
}

/** `"<rule> <path>"`, the key a judgement is written under. */
export function findingKey(f: Pick<LintFinding, 'rule' | 'path'>): string {
  return `${f.rule} ${f.path.replace(/^spec\.template\.spec\./, '')}`;
}

const noStdin = async (): Promise<string> => '';

/** The YAML manifests of a corpus folder, sorted. */
export function corpusFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort();
}

/** Every finding of lint on one manifest file, by "namespace/name". */
export async function lintFile(path: string): Promise<Map<string, LintFinding[]>> {
  const snapshot = await loadFiles([path], noStdin);
  const report = lint(snapshot, snapshot.daemonSets);
  const byDs = new Map<string, LintFinding[]>();
  for (const ds of snapshot.daemonSets)
    byDs.set(`${ds.metadata?.namespace ?? 'default'}/${ds.metadata?.name ?? ''}`, []);
  for (const f of report.findings) byDs.get(`${f.daemonSet.namespace}/${f.daemonSet.name}`)?.push(f);
  return byDs;
}

/** Scores lint on the corpus folder `dir` against `expect`. */
export async function scoreCorpus(dir: string, expect: Expectations): Promise<CorpusScore> {
  const files = corpusFiles(dir);
  const score: CorpusScore = {
    corpus: expect.corpus,
    manifests: files.length,
    daemonSets: [],
    truePositives: 0,
    falsePositives: 0,
    missed: 0,
    unjudged: 0,
    unlisted: files.filter((f) => !(f in expect.manifests)),
    absent: Object.keys(expect.manifests).filter((f) => !files.includes(f)),
  };
  for (const file of files) {
    const found = await lintFile(join(dir, file));
    const judged = expect.manifests[file] ?? {};
    const names = [...new Set([...found.keys(), ...Object.keys(judged)])].sort();
    for (const name of names) {
      const j = judged[name] ?? {};
      const yes = j.true ?? {};
      const no = j.false ?? {};
      const reported = [
        ...new Set((found.get(name) ?? []).filter((f) => f.severity !== 'info').map(findingKey)),
      ].sort();
      const ds: DaemonSetScore = {
        file,
        daemonSet: name,
        truePositives: reported.filter((k) => k in yes),
        falsePositives: reported.filter((k) => k in no),
        missed: Object.keys(yes)
          .filter((k) => !reported.includes(k))
          .sort(),
        unjudged: reported.filter((k) => !(k in yes) && !(k in no)),
      };
      score.daemonSets.push(ds);
      score.truePositives += ds.truePositives.length;
      score.falsePositives += ds.falsePositives.length;
      score.missed += ds.missed.length;
      score.unjudged += ds.unjudged.length;
    }
  }
  return score;
}

/** Precision of a score (true over reported warnings+errors, unjudged ones counted as false); 1 when nothing was reported. */
export function precision(s: CorpusScore): number {
  const reported = s.truePositives + s.falsePositives + s.unjudged;
  return reported === 0 ? 1 : s.truePositives / reported;
}

/** Recall of a score (true entries reported over all true entries); 1 when there are none. */
export function recall(s: CorpusScore): number {
  const all = s.truePositives + s.missed;
  return all === 0 ? 1 : s.truePositives / all;
}

/** Reads an expectation file. */
export function readExpectations(path: string): Expectations {
  return JSON.parse(readFileSync(path, 'utf8')) as Expectations;
}
