/**
 * docs/reasons.md, generated from the reason-code registries so that the docs cannot drift from
 * the code (as docs/lint-rules.md is generated from the rules' metadata). `npm run docs`
 * writes it; a test compares the file with this text.
 */
import type { ReasonEntry, ReasonFamily } from './entry.js';
import { REASON_FAMILIES } from './index.js';

/** Where the generated file lives, relative to the repository root. */
export const REASONS_DOC_PATH = 'docs/reasons.md';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

function severityText(entry: ReasonEntry): string {
  return entry.alsoSeverities?.length ? `${entry.severity} (or ${entry.alsoSeverities.join(', ')})` : entry.severity;
}

function familySection(family: ReasonFamily): string[] {
  const linked = Object.values(family.entries).some((e) => 'needs' in e);
  const rows = Object.entries(family.entries).map(([code, e]) => {
    const link =
      'needs' in e ? ` ${cell(String(e.needs))} | ${cell(String((e as { links?: string }).links ?? ''))} |` : '';
    return `| \`${code}\` | ${severityText(e)} | ${cell(e.short)} | ${cell(e.meaning)} |${link} ${e.upstream ? `\`${cell(e.upstream)}\`` : '(our own analysis)'} |`;
  });
  const header = linked
    ? ['| code | severity | phrase | meaning | needs | links | mirrors |', '|---|---|---|---|---|---|---|']
    : ['| code | severity | phrase | meaning | mirrors |', '|---|---|---|---|---|'];
  return [`## ${family.title}`, '', `Appear in ${family.appearsIn}.`, '', ...header, ...rows, ''];
}

/** The whole of docs/reasons.md. */
export function renderReasonDocs(families: Readonly<Record<string, ReasonFamily>> = REASON_FAMILIES): string {
  return [
    '<!-- Generated from src/model/reasons/ by `npm run docs`; do not edit by hand. -->',
    '# Reason codes',
    '',
    'Every diagnosis ds-doctor gives carries a stable code (PascalCase). The codes are part of the',
    'JSON contract: a code is never renamed or reused for another meaning. The severity is the one',
    'the code usually carries; some codes take another one depending on the case, as listed.',
    'Lint findings carry a rule id instead; see [docs/lint-rules.md](lint-rules.md).',
    '',
    ...Object.values(families).flatMap(familySection),
  ].join('\n');
}
