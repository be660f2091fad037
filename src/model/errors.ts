/** Exit codes of the command-line contract (docs/design.md §3). */
export const EXIT = {
  ok: 0,
  problems: 1,
  usage: 2,
  cluster: 3,
  /** Stopped by Ctrl-C (SIGINT) or SIGTERM while following (`rollout --watch`): 128 + 2, as a shell reports a command SIGINT ended. */
  interrupted: 130,
} as const;

/**
 * An error with a one-line message for the user and the exit code it maps to.
 * Anything that is not a DsDoctorError is a bug and is reported as such.
 */
export class DsDoctorError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'DsDoctorError';
  }
}

/** Bad flags, unreadable or invalid input, unknown objects: exit 2. */
export class InputError extends DsDoctorError {
  constructor(message: string) {
    super(message, EXIT.usage);
    this.name = 'InputError';
  }
}

/** The cluster could not be read: unreachable, unauthorised, forbidden: exit 3. */
export class ClusterError extends DsDoctorError {
  constructor(message: string) {
    super(message, EXIT.cluster);
    this.name = 'ClusterError';
  }
}
