/**
 * SARIF 2.1.0 output of a LintReport for code-scanning UIs: one run whose driver lists every
 * rule's metadata, one result per finding with its level (error → error, warning → warning,
 * info → note) and, for file input, the file (relative to the working directory) and the
 * DaemonSet's first line.
 */
import { createHash } from 'node:crypto';
import { isAbsolute, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LintFinding, LintReport, Severity } from '../model/results.js';
import { escapeJsonText } from './sanitize.js';

/** The schema URI a SARIF 2.1.0 log names (the one GitHub code scanning documents). */
export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

/** What SARIF needs of a rule's metadata (the lint rules' `meta` has this shape). */
export interface SarifRule {
  id: string;
  severity: Severity;
  description: string;
  rationale: string;
  howToFix: string;
  needsCluster?: string;
}

/** What the SARIF log needs besides the report: the tool version and where paths are relative to. */
export interface SarifOptions {
  toolVersion: string;
  /** Absolute working directory: file locations are written relative to it. */
  cwd: string;
}

type Level = 'error' | 'warning' | 'note';

const LEVEL: Record<Severity, Level> = { error: 'error', warning: 'warning', info: 'note' };

/** `privileged-container` → `PrivilegedContainer` (SARIF's optional rule name). */
function ruleName(id: string): string {
  return id
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}

/**
 * The artifact URI of a file as the loader saw it: relative to `cwd` with `/` separators when
 * it lies below it, otherwise an absolute file URI. Undefined for standard input.
 */
export function artifactUri(file: string, cwd: string): string | undefined {
  if (file === '<stdin>' || file === '-') return undefined;
  const rel = isAbsolute(file) ? relative(cwd, file) : relative(cwd, `${cwd}${sep}${file}`);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel))
    return pathToFileURL(isAbsolute(file) ? file : `${cwd}${sep}${file}`).href;
  return rel.split(sep).map(encodeURIComponent).join('/');
}

/** A fingerprint that survives line moves: rule, DaemonSet and JSON path. */
function fingerprint(f: LintFinding): string {
  return createHash('sha256')
    .update(`${f.rule}\u0000${f.daemonSet.namespace}/${f.daemonSet.name}\u0000${f.path}`)
    .digest('hex')
    .slice(0, 32);
}

function fixMarkdown(fix: string): string {
  const nl = fix.indexOf('\n');
  return nl < 0 ? fix : `${fix.slice(0, nl)}\n\n\`\`\`yaml\n${fix.slice(nl + 1)}\n\`\`\``;
}

function result(f: LintFinding, ruleIndex: number, cwd: string): Record<string, unknown> {
  const name = `${f.daemonSet.namespace}/${f.daemonSet.name}`;
  const uri = f.location ? artifactUri(f.location.file, cwd) : undefined;
  const location: Record<string, unknown> = {
    logicalLocations: [{ name: f.daemonSet.name, fullyQualifiedName: `${name}:${f.path}`, kind: 'object' }],
  };
  if (uri && f.location) {
    location['physicalLocation'] = {
      artifactLocation: uri.startsWith('file:') ? { uri } : { uri, uriBaseId: '%SRCROOT%' },
      region: { startLine: f.location.line },
    };
  }
  return {
    ruleId: f.rule,
    ...(ruleIndex >= 0 ? { ruleIndex } : {}),
    level: LEVEL[f.severity],
    message: {
      text: `DaemonSet ${name}: ${f.message}`,
      markdown: `DaemonSet \`${name}\`, \`${f.path}\`: ${f.message}\n\n**Fix:** ${fixMarkdown(f.fix)}`,
    },
    locations: [location],
    partialFingerprints: { 'dsDoctorFinding/v1': fingerprint(f) },
    properties: { daemonSet: name, path: f.path, fix: f.fix, severity: f.severity },
  };
}

/** The SARIF log of a report, as a JSON object. */
export function sarifLog(
  report: LintReport,
  rules: readonly SarifRule[],
  options: SarifOptions,
): Record<string, unknown> {
  const index = new Map(rules.map((r, i) => [r.id, i]));
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'ds-doctor',
            version: options.toolVersion,
            semanticVersion: options.toolVersion,
            rules: rules.map((r) => ({
              id: r.id,
              name: ruleName(r.id),
              shortDescription: { text: r.description },
              fullDescription: { text: r.rationale },
              // The project has no public documentation URL, so each rule carries its whole
              // documentation (the README entry's text) instead of a helpUri.
              help: {
                text: `${r.rationale} How to fix: ${r.howToFix}`,
                markdown: `${r.rationale}\n\n**How to fix:** ${r.howToFix}${r.needsCluster ? `\n\n**Needs cluster data:** ${r.needsCluster}` : ''}`,
              },
              defaultConfiguration: { level: LEVEL[r.severity] },
              properties: { tags: ['kubernetes', 'daemonset'] },
            })),
          },
        },
        invocations: [
          {
            executionSuccessful: true,
            toolExecutionNotifications: [
              ...report.notChecked.map((n) => ({
                level: 'note',
                message: { text: `rule ${n.rule} not checked: ${n.why}` },
                associatedRule: { id: n.rule, ...(index.has(n.rule) ? { index: index.get(n.rule) } : {}) },
              })),
              ...report.suppressed.map((s) => ({
                level: 'note',
                message: {
                  text: `${s.daemonSet.namespace}/${s.daemonSet.name}: rules turned off by annotation: ${s.rules.join(', ')}`,
                },
              })),
            ],
          },
        ],
        results: report.findings.map((f) => result(f, index.get(f.rule) ?? -1, options.cwd)),
      },
    ],
  };
}

/** The SARIF log as JSON text. */
export function renderSarif(report: LintReport, rules: readonly SarifRule[], options: SarifOptions): string {
  return `${escapeJsonText(JSON.stringify(sarifLog(report, rules, options), null, 2))}\n`;
}
