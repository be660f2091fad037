/**
 * The API server's answers as ds-doctor reads them, and what each failure is: an error status
 * (a Kubernetes Status or not), a redirect, a body that is not a JSON object, a connection that is
 * refused, reset or fails TLS. Each is a ClusterError (exit 3) with one line naming the status and
 * the API path, as client-go's rest client turns an answer into an error
 * (rest/request.go#transformResponse, newUnstructuredResponseError). Server text in it is put on
 * one line with control characters escaped, and the client's own secrets are masked wherever they
 * appear.
 */
import http from 'node:http';
import { ClusterError } from '../model/errors.js';
import { escapeTerminal } from '../model/terminal-text.js';

/** An HTTP error answer of the API server (exit 3 unless the caller knows better). */
export class ApiError extends ClusterError {
  constructor(
    message: string,
    readonly status: number,
    readonly kubernetesStatus: boolean,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A request cut short by --request-timeout (its own limit, or the deadline of all reads). */
export class ReadTimeout extends ClusterError {
  constructor(message: string) {
    super(message);
    this.name = 'ReadTimeout';
  }
}

/** Redirects followed to the same server before giving up (a proxy adding a slash, say). */
const MAX_REDIRECTS = 3;
/** Server text longer than this is cut in an error line. */
const MAX_SERVER_TEXT = 300;

/** Server text (an error message, a header) as one line of terminal-safe text, long text cut. */
export function oneLineServerText(text: string, max = MAX_SERVER_TEXT): string {
  const escaped = escapeTerminal(text);
  return escaped.length > max ? `${escaped.slice(0, max)}…` : escaped;
}

/** One answer of the server: its status, headers and whole body. */
export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** The body parsed as a Kubernetes Status object (`kind: Status`), or undefined. */
export function kubernetesStatus(text: string): { message?: unknown } | undefined {
  try {
    const body = JSON.parse(text) as { kind?: unknown; message?: unknown } | null;
    return body && typeof body === 'object' && body.kind === 'Status' ? body : undefined;
  } catch {
    return undefined;
  }
}

/** The texts of one server's answers and failures, with the client's secrets masked. */
export class ServerAnswers {
  constructor(
    /** The server for messages: its password, if the URL has one, masked. */
    readonly server: string,
    private readonly contextName: string,
    private readonly secrets: string[],
  ) {}

  /** Server text for an error line: one line, escaped, the client's secrets masked. */
  say(text: string): string {
    let out = text;
    for (const s of this.secrets) out = out.split(s).join('***');
    return oneLineServerText(out);
  }

  /** "the API server at https://… answered HTTP 503 Service Unavailable for GET /api/v1/nodes" */
  answered(status: number, path: string): string {
    return (
      `the API server at ${this.server} answered HTTP ${status} ${http.STATUS_CODES[status] ?? ''}`.trimEnd() +
      ` for GET ${path}`
    );
  }

  /** A connection that failed: refused, unreachable, TLS, broken while the answer was read. */
  networkError(err: NodeJS.ErrnoException, path: string, midBody: boolean): ClusterError {
    const code = err.code ?? '';
    if (midBody)
      return new ClusterError(
        `the connection to ${this.server} broke while reading the answer to GET ${path} (${code || this.say(err.message)})`,
      );
    if (['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EAI_AGAIN'].includes(code)) {
      return new ClusterError(`cannot reach the API server at ${this.server}: ${code}`);
    }
    if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|TLS|SSL|ERR_TLS/i.test(code) || /certificate|TLS|SSL/i.test(err.message)) {
      return new ClusterError(`TLS failure talking to ${this.server}: ${this.say(err.message)}`);
    }
    return new ClusterError(`request to ${this.server} failed: ${this.say(err.message)}`);
  }

  /** The same-server URL a redirect points to; another server, or too many hops, is an error. */
  redirectTarget(answer: Answer, from: URL, path: string, hops: number): URL {
    const location = answer.headers.location;
    let to: URL | undefined;
    try {
      to = location ? new URL(location, from) : undefined;
    } catch {
      to = undefined;
    }
    const head = `${this.answered(answer.status, path)}, a redirect`;
    if (!to) throw new ApiError(`${head} without a valid Location`, answer.status, false);
    const shown = this.say(`${to.protocol}//${to.host}${to.pathname}`);
    if (to.origin !== from.origin)
      throw new ApiError(
        `${head} to ${shown}: ds-doctor does not follow a redirect to another host`,
        answer.status,
        false,
      );
    if (hops >= MAX_REDIRECTS)
      throw new ApiError(`${head} to ${shown}, after ${hops} redirects already: not followed`, answer.status, false);
    to.username = from.username;
    to.password = from.password;
    return to;
  }

  /** ": <message>" of a Kubernetes Status body, or "" when the body is not one. */
  statusMessage(text: string): string {
    const message = kubernetesStatus(text)?.message;
    return typeof message === 'string' && message ? `: ${this.say(message)}` : '';
  }

  /** Turns a final answer into parsed JSON or the error it means. */
  decode(answer: Answer, path: string, retried: boolean): Record<string, unknown> {
    const { status, text } = answer;
    const type = this.say(
      String(answer.headers['content-type'] ?? 'no Content-Type')
        .split(';')[0]!
        .trim(),
    );
    if (status >= 200 && status < 300) {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        const html = /html/i.test(type) || /^\s*</.test(text);
        const what = html
          ? `${type}, not JSON (a login page or a proxy in front of the API server?)`
          : text
            ? `invalid JSON (${type}, ${Buffer.byteLength(text)} bytes)`
            : 'an empty body, not JSON';
        throw new ApiError(`${this.answered(status, path)} with ${what}`, status, false);
      }
      if (!body || typeof body !== 'object' || Array.isArray(body)) {
        throw new ApiError(`${this.answered(status, path)} with JSON that is not an object`, status, false);
      }
      return body as Record<string, unknown>;
    }
    const isStatus = kubernetesStatus(text) !== undefined;
    const detail = isStatus ? this.statusMessage(text) : ` (${type}, not a Kubernetes Status)`;
    if (status === 401) {
      throw new ApiError(
        `unauthorized (401) by ${this.server}: the credentials of context "${this.contextName}" are missing, invalid or expired`,
        status,
        isStatus,
      );
    }
    if (status === 403) {
      const message = kubernetesStatus(text)?.message;
      throw new ApiError(
        typeof message === 'string' && message
          ? `forbidden: ${this.say(message)}`
          : `forbidden: ${this.answered(status, path)}${detail}`,
        status,
        isStatus,
      );
    }
    throw new ApiError(
      `${this.answered(status, path)}${detail}${retried && status === 429 ? ' (retried once, as Retry-After asked)' : ''}`,
      status,
      isStatus,
    );
  }
}
