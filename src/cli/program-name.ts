/** The name the program is run as (`ds-doctor`, or `kubectl ds-doctor` for the plugin), and commander's errors on one line. */

/** The plugin's executable: kubectl runs `kubectl ds-doctor …` as `kubectl-ds_doctor …`. */
const PLUGIN_EXECUTABLE = /^kubectl-ds_doctor(\.exe)?$/i;

/** The name usage, examples and hints give the program, from the executable it was run as. */
export function programName(executable: string | undefined): string {
  const base = (executable ?? '').split(/[\\/]/).pop() ?? '';
  return PLUGIN_EXECUTABLE.test(base) ? 'kubectl ds-doctor' : 'ds-doctor';
}

/**
 * `text` with every command line `ds-doctor <command>` spelt as the program is run (`kubectl
 * ds-doctor why …` for the plugin); one already spelt `kubectl ds-doctor` is left as it is.
 */
export function asProgram(text: string, name: string): string {
  if (name === 'ds-doctor') return text;
  return text.replace(
    /(?<![\w./-]|kubectl )ds-doctor(?= (?:scan|why|nodes|node|rollout|impact|lint|plan|version|--)\b)/g,
    name,
  );
}

/**
 * commander's error as one line: its "(Did you mean …?)" suggestion, which it writes on a line
 * of its own, joins the message in the house style, `(did you mean "scan"?)`.
 */
export function oneLineError(text: string): string {
  const [first = '', ...rest] = text.trimEnd().split('\n');
  const hint = rest.map((l) => /^\(Did you mean (?:one of )?(.+)\?\)$/.exec(l.trim())).find(Boolean);
  if (!hint) return `${first}\n`;
  const names = hint[1]!.split(', ').map((n) => `"${n}"`);
  return `${first} (did you mean ${names.join(' or ')}?)\n`;
}
