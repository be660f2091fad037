/** The report's last section: the input, the time judged at, the scope, and what wrote the report. */
import type { ReportData } from '../data.js';
import { facts, h, list } from './dom.js';

/** Where the answers come from and what wrote them. */
export function provenanceSection(data: ReportData): HTMLElement {
  const p = data.provenance;
  const from = {
    flag: 'given with --now',
    input: 'the newest timestamp in the input',
    clock: 'the clock when the report was written',
  }[p.judgedAtFrom];
  const notes = [...new Set([...p.warnings, ...data.scan.notes, ...(data.lint.notes ?? [])])];
  return h(
    'section',
    { id: 'provenance', 'aria-labelledby': 'provenance-title' },
    h('h2', { id: 'provenance-title' }, 'Provenance'),
    facts([
      ['Input', p.source === 'files' ? `files: ${p.inputs.join(', ')}` : `live cluster: ${p.inputs.join(', ')}`],
      ['Judged at', `${p.judgedAt} (${from})`],
      ['Scope', p.scope],
      ['Command', h('code', {}, p.command)],
      ['Missing kinds', list(p.missing)],
      ['Lint rules not checked', list(data.lint.notChecked.map((n) => `${n.rule}: ${n.why}`))],
      ['Notes and warnings', list(notes)],
      ['Written by', `ds-doctor ${data.generator.version} (commit ${data.generator.commit})`],
    ]),
  );
}
