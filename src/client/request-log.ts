/**
 * kubectl's request logging (-v=N), line for line as client-go writes it through klog
 * (transport/round_trippers.go#DebugWrappers and debuggingRoundTripper, rest/request.go
 * #truncateBody):
 * - 6: `GET <url> 200 OK in 12 milliseconds` after each request;
 * - 7: `GET <url>` and the request headers before it, `Response Status: 200 OK in 12 milliseconds`
 *   after it;
 * - 8: the response headers and the response body (cut at 1024 characters) as well;
 * - 9 and up: the request as a curl command, and bodies cut at 10240 characters (10: whole).
 * A credential is never written: Authorization keeps only its scheme (`Bearer <masked>`, as
 * client-go's maskValue), a password in the URL is masked, and the client's secrets are masked in
 * bodies. Every value is put on one line with control characters escaped (it comes from a server).
 */
import http from 'node:http';
import { escapeTerminal } from '../model/terminal-text.js';
import { redactedUrl } from './server-url.js';

const KNOWN_AUTH_TYPES = new Set(['bearer', 'basic', 'negotiate']);

/** An Authorization value with its credential masked (client-go round_trippers.go#maskValue); other headers as they are. */
export function maskHeaderValue(key: string, value: string): string {
  if (!/^(proxy-)?authorization$/i.test(key)) return value;
  if (value === '') return '';
  const space = value.indexOf(' ');
  const scheme = space > 0 ? value.slice(0, space) : value;
  if (!KNOWN_AUTH_TYPES.has(scheme.toLowerCase())) return '<masked>';
  return value.length > scheme.length + 1 ? `${scheme} <masked>` : scheme;
}

/** Go's http.Response.Status: "200 OK". */
export function statusText(status: number): string {
  return `${status} ${http.STATUS_CODES[status] ?? ''}`.trimEnd();
}

/** A body as klog writes it at this level: cut at 1024 (8) or 10240 (9) characters, whole from 10. */
export function truncateBody(body: string, verbosity: number): string {
  if (verbosity >= 10) return body;
  const max = verbosity >= 9 ? 10240 : 1024;
  return body.length <= max ? body : `${body.slice(0, max)} [truncated ${body.length - max} chars]`;
}

/** klog's line header: `I1205 05:30:00.123456   12345 request-log]`. */
export function klogHeader(now: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const micros = String(now.getUTCMilliseconds() * 1000).padStart(6, '0');
  return `I${two(now.getUTCMonth() + 1)}${two(now.getUTCDate())} ${two(now.getUTCHours())}:${two(now.getUTCMinutes())}:${two(now.getUTCSeconds())}.${micros} ${String(process.pid).padStart(7)} request-log]`;
}

type Headers = Record<string, string | string[] | number | undefined>;

/** Header lines `    Key: value`, one per value, credentials masked. */
function headerLines(headers: Headers): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [String(value)])
      lines.push(`    ${key}: ${maskHeaderValue(key, v)}`);
  }
  return lines;
}

/** The log of one client's requests at one -v level. */
export class RequestLog {
  constructor(
    readonly verbosity: number,
    private readonly write: (line: string) => void,
    private readonly secrets: readonly string[] = [],
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** One log line: klog's header, the text masked and put on one line. */
  private line(text: string): void {
    let out = text;
    for (const s of this.secrets) out = out.split(s).join('***');
    this.write(`${klogHeader(this.clock())} ${escapeTerminal(out)}`);
  }

  /** Before a request is sent. `auth` is user:password of basic auth given to node:http (sent as a header it builds). */
  request(method: string, url: URL, headers: Headers, auth?: string): void {
    if (this.verbosity < 7) return;
    const shown = redactedUrl(url.href);
    const all: Headers = auth
      ? { ...headers, Authorization: `Basic ${Buffer.from(auth).toString('base64')}` }
      : headers;
    if (this.verbosity >= 9) {
      const h = headerLines(all).map((l) => ` -H ${JSON.stringify(l.trim())}`);
      this.line(`curl -v -X${method}${h.join('')} '${shown}'`);
      return;
    }
    this.line(`${method} ${shown}`);
    this.line('Request Headers:');
    for (const l of headerLines(all)) this.line(l);
  }

  /** After an answer (status 0: no answer, the request failed). */
  response(method: string, url: URL, status: number, ms: number, headers: Headers = {}, body?: string): void {
    const shown = redactedUrl(url.href);
    const statusLine = status ? statusText(status) : '';
    if (this.verbosity === 6 || this.verbosity >= 9)
      this.line(`${method} ${shown} ${statusLine} in ${Math.floor(ms)} milliseconds`);
    if (this.verbosity >= 7 && this.verbosity < 9)
      this.line(`Response Status: ${statusLine} in ${Math.floor(ms)} milliseconds`);
    if (this.verbosity >= 8 && status) {
      this.line('Response Headers:');
      for (const l of headerLines(headers)) this.line(l);
    }
    if (this.verbosity >= 8 && body !== undefined) this.line(`Response Body: ${truncateBody(body, this.verbosity)}`);
  }
}
