/**
 * Folds the long scalars of YAML written on one line each (js-yaml `dump` with `lineWidth: -1`)
 * the way kubectl's YAML printer does: sigs.k8s.io/yaml writes through go.yaml.in/yaml/v2, whose
 * emitter (emitterc.go: yaml_emitter_write_plain_scalar, _write_single_quoted,
 * _write_double_quoted) breaks a plain or quoted scalar at a space once the line is past 80
 * columns, and goes on two columns deeper than the key (or the `- `) it belongs to. So the bench's
 * YAML dumps hold the multi-line scalars real `kubectl get -o yaml` output holds (long condition
 * messages, event messages, annotations). Block scalars, keys and short lines are left as they are.
 */

/** go-yaml's best_width. */
const WIDTH = 80;

/** A line's scalar: where it starts and the column its continuation lines start at. */
function scalarOf(line: string): { at: number; indent: number } | undefined {
  let i = 0;
  while (line.charCodeAt(i) === 0x20) i++;
  let owner = i;
  while (line.startsWith('- ', i)) {
    owner = i;
    i += 2;
  }
  const afterDashes = i;
  // A key: quoted, or plain up to its `: `.
  let keyEnd = -1;
  const c = line[i];
  if (c === "'" || c === '"') {
    let k = i + 1;
    for (; k < line.length; k++) {
      if (line[k] === c) {
        if (c === "'" && line[k + 1] === "'") {
          k++;
          continue;
        }
        break;
      }
      if (c === '"' && line[k] === '\\') k++;
    }
    if (line.startsWith(': ', k + 1)) keyEnd = k + 1;
  } else {
    const colon = line.indexOf(': ', i);
    if (colon > 0) keyEnd = colon;
  }
  if (keyEnd >= 0) return { at: keyEnd + 2, indent: afterDashes + 2 };
  return afterDashes > 0 && line.startsWith('- ', owner) ? { at: afterDashes, indent: owner + 2 } : undefined;
}

/** One line, folded as go-yaml folds the scalar at its end. */
export function foldLine(line: string): string {
  if (line.length <= WIDTH) return line;
  const s = scalarOf(line);
  if (!s) return line;
  const q = line[s.at];
  if (q === '|' || q === '>' || q === '[' || q === '{' || q === '&' || q === '*' || q === '!') return line;
  const quoted = q === "'" || q === '"';
  const bodyFrom = quoted ? s.at + 1 : s.at;
  const bodyTo = quoted ? line.length - 1 : line.length;
  if (quoted && line[bodyTo] !== q) return line;
  const body = line.slice(bodyFrom, bodyTo);
  const pad = ' '.repeat(s.indent);
  let out = line.slice(0, bodyFrom);
  let column = bodyFrom;
  let spaces = false;
  for (let j = 0; j < body.length; j++) {
    const ch = body[j]!;
    if (ch === ' ') {
      const inside = !quoted || (j > 0 && j < body.length - 1);
      const nextSpace = body[j + 1] === ' ';
      if (!spaces && column > WIDTH && inside && (q === '"' || !nextSpace)) {
        out += `\n${pad}`;
        column = s.indent;
        if (q === '"' && nextSpace) {
          out += '\\';
          column++;
        }
        spaces = true;
        continue;
      }
      spaces = true;
    } else {
      spaces = false;
    }
    out += ch;
    column++;
  }
  return quoted ? out + q : out;
}

/** A YAML text with every long scalar folded (lines of block scalars left alone). */
export function foldLikeKubectl(text: string): string {
  const lines = text.split('\n');
  let blockIndent = -1;
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k]!;
    let ind = 0;
    while (line.charCodeAt(ind) === 0x20) ind++;
    if (blockIndent >= 0) {
      if (ind > blockIndent || ind === line.length) continue;
      blockIndent = -1;
    }
    if (/(: |^ *- )[|>][-+0-9]*$/.test(line)) {
      // Its text is deeper than the key (or the `- `) it belongs to.
      blockIndent = (scalarOf(line)?.indent ?? ind + 2) - 2;
      continue;
    }
    lines[k] = foldLine(line);
  }
  return lines.join('\n');
}
