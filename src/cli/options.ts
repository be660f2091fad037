/** The kubectl-style flags every command shares, parsed and validated. */
import type { Command } from 'commander';
import { Option } from 'commander';
import { InputError } from '../model/errors.js';
import { parseRfc3339 } from '../model/duration.js';
import { checkNamespace } from './names.js';
import { parseDuration } from './duration.js';
import type { ConfigOverrides } from '../client/kubeconfig-overrides.js';

/** The heading of kubectl's connection flags in --help. */
export const CONNECTION_GROUP = 'Cluster connection flags (as kubectl):';

export const OUTPUT_FORMATS = ['table', 'wide', 'json', 'yaml', 'markdown'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number] | 'sarif' | 'name' | 'junit';
export type FailOn = 'error' | 'warning' | 'none';
export const COLOR_MODES = ['auto', 'always', 'never'] as const;
export type ColorMode = (typeof COLOR_MODES)[number];

export interface GlobalOptions {
  filenames: string[];
  kubeconfig?: string;
  context?: string;
  /** `--context` given more than once (scan and lint read each; every other command refuses). */
  contexts?: string[];
  namespace?: string;
  allNamespaces: boolean;
  output: OutputFormat;
  /** --color (auto: on a terminal, unless NO_COLOR is set or TERM is dumb); --no-color is never. */
  color: ColorMode;
  now: Date;
  /** Whether --now was given; without it a dump is judged at the time it describes. */
  nowGiven?: boolean;
  failOn: FailOn;
  debug: boolean;
  requestTimeout?: string;
  dump?: string;
  /** kubectl's connection flags other than --kubeconfig and --context (which are above). */
  connection: Omit<ConfigOverrides, 'context'>;
  /** --no-headers (scan, lint): table rows only. */
  noHeaders?: boolean;
  /** kubectl's -v log level (6: each request, 7: and its headers, 8: and the answers' bodies). */
  verbosity?: number;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** For a command whose -o names the file it writes (`report`): the flag's help. */
export interface OutputFileOption {
  file: string;
}

/** Adds the shared flags to a command; `formats` is the list -o accepts there, or the help of an -o that names a file. */
export function addCommonOptions(
  cmd: Command,
  formats: readonly string[] | OutputFileOption = OUTPUT_FORMATS,
): Command {
  return (
    cmd
      .option(
        '-f, --filename <path>',
        'read cluster state from a file, directory or - (repeatable); the cluster is not contacted',
        collect,
        [],
      )
      .addOption(new Option('--kubeconfig <path>', 'path to the kubeconfig file').helpGroup(CONNECTION_GROUP))
      .addOption(
        new Option('--context <name>', 'kubeconfig context to use (scan and lint: repeatable, each cluster read)')
          .argParser((v: string, prev: string[] | undefined) => collect(v, prev ?? []))
          .helpGroup(CONNECTION_GROUP),
      )
      .addOption(
        new Option('--cluster <name>', 'the name of the kubeconfig cluster to use').helpGroup(CONNECTION_GROUP),
      )
      .addOption(new Option('--user <name>', 'the name of the kubeconfig user to use').helpGroup(CONNECTION_GROUP))
      .addOption(
        new Option('-s, --server <address>', 'the address and port of the Kubernetes API server').helpGroup(
          CONNECTION_GROUP,
        ),
      )
      .addOption(
        new Option('--token <token>', 'bearer token for authentication to the API server').helpGroup(CONNECTION_GROUP),
      )
      .addOption(
        new Option(
          '--as <user>',
          'username to impersonate for the operation (a user or a service account, system:serviceaccount:<ns>:<name>)',
        ).helpGroup(CONNECTION_GROUP),
      )
      .addOption(
        new Option('--as-group <group>', 'group to impersonate for the operation (repeatable)')
          .argParser((v: string, prev: string[] | undefined) => collect(v, prev ?? []))
          .helpGroup(CONNECTION_GROUP),
      )
      .addOption(new Option('--as-uid <uid>', 'UID to impersonate for the operation').helpGroup(CONNECTION_GROUP))
      .addOption(
        new Option('--certificate-authority <path>', 'path to a cert file for the certificate authority').helpGroup(
          CONNECTION_GROUP,
        ),
      )
      .addOption(
        new Option('--client-certificate <path>', 'path to a client certificate file for TLS').helpGroup(
          CONNECTION_GROUP,
        ),
      )
      .addOption(new Option('--client-key <path>', 'path to a client key file for TLS').helpGroup(CONNECTION_GROUP))
      .addOption(
        new Option(
          '--insecure-skip-tls-verify',
          "the server's certificate is not checked for validity (insecure)",
        ).helpGroup(CONNECTION_GROUP),
      )
      .addOption(
        new Option(
          '--tls-server-name <name>',
          'server name to check the server certificate against (default: the host contacted)',
        ).helpGroup(CONNECTION_GROUP),
      )
      .addOption(
        new Option(
          '--request-timeout <duration>',
          'time limit of each API request and of all the reads together (e.g. 30s, 1m; default 30s each, 5m in all; 0: none)',
        ).helpGroup(CONNECTION_GROUP),
      )
      .addOption(
        new Option(
          '-v, --v <level>',
          'log each API request on stderr as kubectl does (6: method, URL, status, time; 7: and request headers; 8: and answers)',
        ).helpGroup(CONNECTION_GROUP),
      )
      .option('-n, --namespace <ns>', 'namespace scope')
      .option('-A, --all-namespaces', 'every namespace', false)
      .addOption(
        'file' in formats
          ? new Option('-o, --output <file>', formats.file)
          : new Option('-o, --output <format>', 'output format').choices([...formats]).default('table'),
      )
      // A value is required (--color=always): an optional one would take the next argument (a DaemonSet name) as its value.
      .addOption(
        new Option(
          '--color <when>',
          'colour: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always, never',
        ).choices([...COLOR_MODES]),
      )
      .option('--no-color', 'disable colour (the same as --color=never)')
      .option(
        '--now <time>',
        'evaluation time, RFC 3339 (default: the current time; for files, the newest timestamp they hold)',
      )
      .addOption(
        new Option('--fail-on <level>', 'exit 1 when a problem at or above this level is found')
          .choices(['error', 'warning', 'none'])
          .default('error'),
      )
      .option('--dump <file>', 'write the snapshot that was analysed as multi-document YAML')
      .option('--debug', 'print stack traces on errors', false)
  );
}

/** Parses `--now`; a value that is not an RFC 3339 time on the calendar is a usage error. */
export function parseNow(value: string | undefined, clock: () => Date): Date {
  if (value === undefined) return clock();
  const t = parseRfc3339(value);
  if (Number.isNaN(t)) throw new InputError(`--now: "${value}" is not an RFC 3339 time (e.g. 2026-11-29T12:00:00Z)`);
  return new Date(t);
}

/**
 * The colour mode of --color/--no-color and the environment: a flag wins; without one, NO_COLOR
 * (set and not empty, no-color.org) or TERM=dumb turn colour off, else it is on for a terminal.
 */
export function colorMode(flag: unknown, env: Record<string, string | undefined>): ColorMode {
  if (flag === false || flag === 'never') return 'never';
  if (flag === 'always') return 'always';
  const noColor = env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '';
  return noColor || env['TERM'] === 'dumb' ? 'never' : 'auto';
}

/** Turns commander's raw option bag into GlobalOptions. */
export function globalOptions(
  raw: Record<string, unknown>,
  env: Record<string, string | undefined>,
  clock: () => Date,
): GlobalOptions {
  const opts: GlobalOptions = {
    filenames: (raw['filename'] as string[] | undefined) ?? [],
    allNamespaces: Boolean(raw['allNamespaces']),
    output: (raw['output'] as OutputFormat | undefined) ?? 'table',
    color: colorMode(raw['color'], env),
    now: parseNow(raw['now'] as string | undefined, clock),
    nowGiven: raw['now'] !== undefined,
    failOn: (raw['failOn'] as FailOn | undefined) ?? 'error',
    debug: Boolean(raw['debug']),
    connection: connectionFlags(raw),
  };
  if (raw['headers'] === false) opts.noHeaders = true;
  const verbosity = verbosityOf(raw['v']);
  if (verbosity !== undefined) opts.verbosity = verbosity;
  for (const key of ['kubeconfig', 'context', 'namespace', 'requestTimeout', 'dump'] as const) {
    const v = raw[key];
    if (typeof v === 'string') opts[key] = v;
  }
  // --context is repeatable: one is the context to use, several are each read (scan, lint).
  const contexts = Array.isArray(raw['context']) ? [...new Set(raw['context'] as string[])] : [];
  if (contexts.length === 1) opts.context = contexts[0]!;
  if (contexts.length > 1) opts.contexts = contexts;
  if (opts.namespace !== undefined && opts.namespace.trim() === '') {
    throw new InputError('-n/--namespace: the namespace must not be empty');
  }
  // Checked even with -f, where no request is made: a bad flag is a bad flag.
  if (opts.namespace !== undefined) checkNamespace('-n/--namespace', opts.namespace);
  if (opts.requestTimeout !== undefined) parseDuration('--request-timeout', opts.requestTimeout);
  return opts;
}

/** `-v 6`, `-v=6` (commander keeps the "="), `--v=6`: kubectl's klog level, a whole number. */
export function verbosityOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.replace(/^=/, '');
  if (!/^\d{1,2}$/.test(text))
    throw new InputError(`-v: "${text}" is not a log level (a number, e.g. -v=6; 6 logs each request)`);
  return Number(text);
}

/**
 * kubectl's connection flags as ConfigOverrides. An empty value is no value, as for kubectl
 * (`--as="$USER_TO_CHECK"` with the variable unset impersonates no one).
 */
export function connectionFlags(raw: Record<string, unknown>): Omit<ConfigOverrides, 'context'> {
  const out: Omit<ConfigOverrides, 'context'> = {};
  const text = (key: string): string | undefined => {
    const v = raw[key];
    return typeof v === 'string' && v !== '' ? v : undefined;
  };
  const set = <K extends keyof typeof out>(key: K, value: (typeof out)[K] | undefined) => {
    if (value !== undefined) out[key] = value;
  };
  set('cluster', text('cluster'));
  set('user', text('user'));
  set('server', text('server'));
  set('token', text('token'));
  set('as', text('as'));
  set('asUid', text('asUid'));
  set('certificateAuthority', text('certificateAuthority'));
  set('clientCertificate', text('clientCertificate'));
  set('clientKey', text('clientKey'));
  set('tlsServerName', text('tlsServerName'));
  const groups = ((raw['asGroup'] as string[] | undefined) ?? []).filter((g) => g !== '');
  if (groups.length) out.asGroups = groups;
  if (raw['insecureSkipTlsVerify'] === true) out.insecureSkipTlsVerify = true;
  return out;
}
