// Live faults through the real CLI (main(argv, io)) against fake API servers on 127.0.0.1
// (issue 13, classes 4 and 5, and the endless-list part of class 3). Every server fault is exit 3
// and every wrong kubeconfig field exit 2, with exactly one line on stderr naming the status and
// the API path (or the kubeconfig file, entry and field); and in every case, with and without
// --debug, no credential of the kubeconfig appears in stdout or stderr.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type http from 'node:http';
import { capturingIo, runCli, type CliRun } from '../harness.js';
import { main } from '../../src/cli/main.js';
import {
  b64,
  emptyList,
  hasOpenssl,
  makePki,
  startFakeApi,
  statusAnswer,
  writeKubeconfig,
  type FakeApi,
  type Handler,
  type KubeconfigParts,
  type Pki,
} from './fake-api.js';

const TOKEN = 'tok-SECRET-5f1e9a7c3b2d';
const PASSWORD = 'pw-SECRET-91ab77e0';
const EXEC_TOKEN = 'exec-SECRET-0c4d2e8f';
const EXEC_OUTPUT = 'plugin-SECRET-output-77aa';
/** Every test is bounded, so that a broken case fails instead of hanging CI. */
const BOUND = { timeout: 20_000 };

const OPENSSL = hasOpenssl();
if (!OPENSSL)
  console.log(
    '# live-faults: openssl not found, so the HTTPS cases are skipped (they need it to make test certificates)',
  );
const NEEDS_TLS = OPENSSL ? BOUND : { ...BOUND, skip: 'openssl not found (needed to make test certificates)' };

let pki: Pki;
before(() => {
  if (OPENSSL) pki = makePki();
});
after(() => {
  if (pki) fs.rmSync(pki.dir, { recursive: true, force: true });
});

/** The strings no output may contain: token, password (plain and URL-encoded), client key, exec output. */
function secrets(): string[] {
  const list = [TOKEN, PASSWORD, encodeURIComponent(PASSWORD), b64(`admin:${PASSWORD}`), EXEC_TOKEN, EXEC_OUTPUT];
  if (pki) {
    list.push(b64(pki.clientKey));
    // Each base64 line of the key's PEM body.
    list.push(...pki.clientKey.split('\n').filter((l) => l.length > 20 && !l.startsWith('-----')));
  }
  return list;
}

function assertNoSecret(r: CliRun, label: string): void {
  for (const s of secrets()) {
    assert.ok(
      !r.stdout.includes(s) && !r.stderr.includes(s),
      `${label}: a secret was printed: ${JSON.stringify(r.stderr)}`,
    );
  }
}

/** The kubeconfig of most cases: HTTPS with the test CA, a password in the server URL, a token and a client certificate. */
function securedParts(api: FakeApi, user: Record<string, unknown> = {}): KubeconfigParts {
  return {
    cluster: {
      server: `https://admin:${PASSWORD}@127.0.0.1:${api.port}`,
      'certificate-authority-data': b64(pki.serverCert),
    },
    user: {
      token: TOKEN,
      'client-certificate-data': b64(pki.clientCert),
      'client-key-data': b64(pki.clientKey),
      ...user,
    },
  };
}

/** Runs the CLI twice (plain and --debug); checks exit code, one stderr line matching `re` (plain run), and no secret in either. */
async function expectFailure(argv: string[], code: number, re: RegExp): Promise<CliRun> {
  const [r, debug] = await Promise.all([runCli(argv), runCli([...argv, '--debug'])]);
  assert.equal(r.code, code, `exit code; stderr: ${r.stderr}`);
  assert.equal(r.stdout, '');
  assert.ok(r.stderr.endsWith('\n'), JSON.stringify(r.stderr));
  assert.equal(r.stderr.trimEnd().split('\n').length, 1, `one line: ${JSON.stringify(r.stderr)}`);
  assert.ok(
    // eslint-disable-next-line no-control-regex -- the check is for control characters
    !/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(r.stderr),
    `no control characters: ${JSON.stringify(r.stderr)}`,
  );
  assert.match(r.stderr.trimEnd(), re);
  assertNoSecret(r, argv.join(' '));
  assert.equal(debug.code, code, `--debug exit code; stderr: ${debug.stderr}`);
  assertNoSecret(debug, `${argv.join(' ')} --debug`);
  return r;
}

/**
 * A fake server with `handler`, a kubeconfig for it, and the kubeconfig's path; closed after
 * `fn`. The CLI runs in this process, so a regression that reads forever would outlive the test's
 * timeout: a watchdog closes the server first, which ends any read.
 */
async function withApi(
  handler: Handler,
  parts: (api: FakeApi) => KubeconfigParts,
  fn: (kubeconfig: string, api: FakeApi) => Promise<void>,
  tls = true,
): Promise<void> {
  const api = await startFakeApi(handler, tls ? pki : undefined);
  const watchdog = setTimeout(() => void api.close(), BOUND.timeout - 5_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-doctor-kc-'));
  try {
    await fn(writeKubeconfig(dir, 'case', parts(api)), api);
  } finally {
    clearTimeout(watchdog);
    await api.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Answers requests whose path is `path` with `answer`, the rest with empty lists. */
function on(
  pathname: string,
  answer: (res: http.ServerResponse, req: http.IncomingMessage, url: URL) => void,
): Handler {
  return (req, res, url) => {
    if (url.pathname !== pathname) return false;
    answer(res, req, url);
    return true;
  };
}

const DS_PATH = '/apis/apps/v1/namespaces/demo/daemonsets';
const ALL_DS_PATH = '/apis/apps/v1/daemonsets';
const NODES_PATH = '/api/v1/nodes';
const SERVER = String.raw`https://admin:xxxxx@127\.0\.0\.1:\d+`;

interface FaultCase {
  name: string;
  handler: Handler;
  argv?: string[];
  code?: number;
  re: RegExp;
  tls?: boolean;
}

const FAULTS: FaultCase[] = [
  {
    name: 'HTTP 500 with a Status message holding newlines and terminal escapes: one escaped line',
    handler: on(DS_PATH, (res) =>
      statusAnswer(res, 500, 'etcdserver: leader changed\n\u001b[2J\u001b]0;pwned\u0007 retry\u202e'),
    ),
    re: new RegExp(
      `^error: the API server at ${SERVER} answered HTTP 500 Internal Server Error for GET ${DS_PATH}: etcdserver: leader changed\\\\n\\^\\[\\[2J\\^\\[\\]0;pwned\\^G retry\\\\u202e$`,
    ),
  },
  {
    name: 'HTTP 503 with an HTML page (a load balancer): exit 3 naming status and path',
    handler: on(NODES_PATH, (res) => {
      res.writeHead(503, { 'Content-Type': 'text/html' });
      res.end('<html><body>upstream down</body></html>');
    }),
    re: new RegExp(
      `^error: the API server at ${SERVER} answered HTTP 503 Service Unavailable for GET ${NODES_PATH} \\(text/html, not a Kubernetes Status\\)$`,
    ),
  },
  {
    name: 'HTTP 404 from a proxy for a kind ds-doctor needs: exit 3 naming it, no RBAC hint',
    handler: on(NODES_PATH, (res) => {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('404 page not found');
    }),
    re: new RegExp(
      `^error: the API server at ${SERVER} answered HTTP 404 Not Found for GET ${NODES_PATH} \\(text/plain, not a Kubernetes Status\\)$`,
    ),
  },
  {
    name: 'HTTP 429 twice: Retry-After honoured once, then exit 3',
    handler: on(DS_PATH, (res) =>
      statusAnswer(res, 429, 'too many requests, please slow down', { 'Retry-After': '1' }),
    ),
    re: new RegExp(
      `^error: the API server at ${SERVER} answered HTTP 429 Too Many Requests for GET ${DS_PATH}: too many requests, please slow down \\(retried once, as Retry-After asked\\)$`,
    ),
  },
  {
    name: 'HTTP 429 with a Retry-After of an hour: not waited for, exit 3 at once',
    handler: on(DS_PATH, (res) => statusAnswer(res, 429, 'slow down', { 'Retry-After': '3600' })),
    re: new RegExp(
      `^error: the API server at ${SERVER} answered HTTP 429 Too Many Requests for GET ${DS_PATH}: slow down \\(Retry-After 3600s is longer than ds-doctor waits: 10s\\)$`,
    ),
  },
  {
    name: 'HTTP 429 without Retry-After: not retried, exit 3',
    handler: on(DS_PATH, (res) => statusAnswer(res, 429, 'slow down')),
    re: new RegExp(
      `^error: the API server at ${SERVER} answered HTTP 429 Too Many Requests for GET ${DS_PATH}: slow down \\(no Retry-After: not retried\\)$`,
    ),
  },
  {
    name: 'HTTP 200 with an HTML login page: exit 3, not JSON',
    handler: on(DS_PATH, (res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Sign in</title><form>');
    }),
    re: new RegExp(
      `^error: the API server at ${SERVER} answered HTTP 200 OK for GET ${DS_PATH} with text/html, not JSON \\(a login page or a proxy in front of the API server\\?\\)$`,
    ),
  },
  {
    name: 'HTTP 200 with invalid JSON: exit 3',
    handler: on(DS_PATH, (res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"kind":"DaemonSetList","items":[{');
    }),
    re: new RegExp(
      `^error: the API server at ${SERVER} answered HTTP 200 OK for GET ${DS_PATH} with invalid JSON \\(application/json, 34 bytes\\)$`,
    ),
  },
  {
    name: 'HTTP 200 with JSON that is not an object: exit 3',
    handler: on(DS_PATH, (res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('[1,2]');
    }),
    re: new RegExp(
      `^error: the API server at ${SERVER} answered HTTP 200 OK for GET ${DS_PATH} with JSON that is not an object$`,
    ),
  },
  {
    name: 'a redirect to another host: not followed, exit 3',
    handler: on(DS_PATH, (res) => {
      res.writeHead(302, { Location: `https://sso.example.com/login?next=x&token=${TOKEN}` });
      res.end();
    }),
    re: new RegExp(
      `^error: the API server at ${SERVER} answered HTTP 302 Found for GET ${DS_PATH}, a redirect to https://sso\\.example\\.com/login: ds-doctor does not follow a redirect to another host$`,
    ),
  },
  {
    name: 'redirects that loop on the same server: bounded, exit 3',
    handler: on(DS_PATH, (res) => {
      res.writeHead(307, { Location: DS_PATH });
      res.end();
    }),
    re: new RegExp(
      `^error: the API server at ${SERVER} answered HTTP 307 Temporary Redirect for GET ${DS_PATH}, a redirect to https://127\\.0\\.0\\.1:\\d+${DS_PATH}, after 3 redirects already: not followed$`,
    ),
  },
  {
    name: 'a list holding a null item: exit 3 naming the path and the index',
    handler: on(NODES_PATH, (res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'NodeList', items: [{ metadata: { name: 'n1' } }, null] }));
    }),
    re: new RegExp(
      `^error: the API server at ${SERVER} answered GET ${NODES_PATH} with a list holding a null item \\(items\\[1\\]\\)$`,
    ),
  },
  {
    name: 'HTTP 200 with an empty body: exit 3, not an empty list',
    handler: on(DS_PATH, (res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end();
    }),
    re: new RegExp(
      `^error: the API server at ${SERVER} answered HTTP 200 OK for GET ${DS_PATH} with an empty body, not JSON$`,
    ),
  },
  {
    name: 'HTTP 200 with an object that is not a list (another service): exit 3, not an empty list',
    handler: on(DS_PATH, (res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"status":"ok"}');
    }),
    re: new RegExp(
      `^error: the API server at ${SERVER} answered GET ${DS_PATH} with an object that is not a list \\(no "items"\\)$`,
    ),
  },
  {
    name: 'a list whose items is not an array: exit 3',
    handler: on(NODES_PATH, (res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"kind":"NodeList","items":{"a":1}}');
    }),
    re: new RegExp(
      `^error: the API server at ${SERVER} answered GET ${NODES_PATH} with a list whose "items" is not an array$`,
    ),
  },
  {
    name: 'the connection reset in the middle of the body: exit 3',
    handler: on(DS_PATH, (res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"kind":"DaemonSetList","items":[');
      setTimeout(() => res.socket?.destroy(), 50);
    }),
    re: new RegExp(
      `^error: the connection to ${SERVER} broke while reading the answer to GET ${DS_PATH} \\(ECONNRESET\\)$`,
    ),
  },
  {
    name: 'a server that never answers: exit 3 after --request-timeout',
    argv: ['scan', '--request-timeout', '1s'],
    handler: on(DS_PATH, () => undefined),
    re: new RegExp(`^error: request to ${SERVER}${DS_PATH} timed out after 1s \\(--request-timeout\\)$`),
  },
  {
    name: 'a server that stops in the middle of the body: exit 3 after --request-timeout',
    argv: ['scan', '--request-timeout', '1s'],
    handler: on(DS_PATH, (res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"items":[');
    }),
    re: new RegExp(`^error: request to ${SERVER}${DS_PATH} timed out after 1s \\(--request-timeout\\)$`),
  },
  {
    name: 'a server repeating a continue token: the list that did not end is named',
    argv: ['scan', '-A'],
    handler: on(ALL_DS_PATH, (res, _req, url) => {
      const next = { '': 'A', A: 'B', B: 'A' }[url.searchParams.get('continue') ?? ''] ?? 'A';
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'DaemonSetList', metadata: { continue: next }, items: [] }));
    }),
    re: /^error: listing daemonsets in all namespaces did not end: the server repeated continue token after 3 pages$/,
  },
  {
    name: 'a server giving a new continue token forever: bounded by --request-timeout for all reads',
    argv: ['scan', '-A', '--request-timeout', '1s'],
    handler: on(ALL_DS_PATH, (res, _req, url) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          kind: 'DaemonSetList',
          metadata: { continue: `${url.searchParams.get('continue') ?? ''}x`.slice(-64) + String(Math.random()) },
          items: [],
        }),
      );
    }),
    re: new RegExp(
      `^error: listing daemonsets in all namespaces did not end: reading from ${SERVER} took longer than 1s in all \\(--request-timeout\\); GET ${ALL_DS_PATH} did not finish \\(\\d+ pages? read\\)$`,
    ),
  },
  {
    name: 'HTTP 401 (the server rejects the credentials): exit 3, no credential echoed',
    handler: on(DS_PATH, (res, req) => statusAnswer(res, 401, `Unauthorized: ${req.headers.authorization ?? ''}`)),
    re: new RegExp(
      `^error: unauthorized \\(401\\) by ${SERVER}: the credentials of context "fake" are missing, invalid or expired$`,
    ),
  },
  {
    name: 'a server message echoing the bearer token: the token is masked',
    handler: on(DS_PATH, (res, req) => statusAnswer(res, 500, `bad header ${req.headers.authorization ?? ''}`)),
    re: new RegExp(
      `^error: the API server at ${SERVER} answered HTTP 500 Internal Server Error for GET ${DS_PATH}: bad header Bearer \\*\\*\\*$`,
    ),
  },
  {
    name: 'an HTML 404 for a DaemonSet (not the Kubernetes API): exit 3, not "not found"',
    argv: ['why', 'demo/agent'],
    handler: on(`${DS_PATH}/agent`, (res) => {
      res.writeHead(404, { 'Content-Type': 'text/html' });
      res.end('<h1>Not Found</h1>');
    }),
    re: new RegExp(
      `^error: the API server at ${SERVER} answered HTTP 404 Not Found for GET ${DS_PATH}/agent \\(text/html, not a Kubernetes Status\\)$`,
    ),
  },
];

// Each case has its own server and kubeconfig; they run side by side (most of their time is a
// request timeout or a Retry-After running out).
describe('live faults: exit 3, one line naming status and path, no secret', { concurrency: true }, () => {
  for (const c of FAULTS) {
    test(c.name, NEEDS_TLS, async () => {
      await withApi(
        c.handler,
        (api) => securedParts(api),
        async (kubeconfig) => {
          await expectFailure([...(c.argv ?? ['scan']), '--kubeconfig', kubeconfig], c.code ?? 3, c.re);
        },
      );
    });
  }
});

describe('live answers that work', () => {
  test('HTTP 429 with Retry-After: 1, then an answer: waits about a second and goes on', NEEDS_TLS, async () => {
    let throttled = 0;
    const handler = on(DS_PATH, (res) => {
      if (throttled++ === 0) statusAnswer(res, 429, 'slow down', { 'Retry-After': '1' });
      else emptyList(res);
    });
    await withApi(
      handler,
      (api) => securedParts(api),
      async (kubeconfig, api) => {
        const start = Date.now();
        const r = await runCli(['scan', '--kubeconfig', kubeconfig, '-o', 'json']);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(JSON.parse(r.stdout).kind, 'ScanReport');
        assert.equal(api.requests.filter((p) => p.startsWith(`${DS_PATH}?`)).length, 2);
        assert.ok(Date.now() - start >= 900, 'waited for Retry-After');
        assertNoSecret(r, 'retry');
      },
    );
  });

  test('a redirect on the same server is followed', NEEDS_TLS, async () => {
    const handler: Handler = (_req, res, url) => {
      if (url.pathname !== DS_PATH) return false;
      res.writeHead(301, { Location: `${DS_PATH}/?${url.searchParams.toString()}` });
      res.end();
      return true;
    };
    await withApi(
      handler,
      (api) => securedParts(api),
      async (kubeconfig, api) => {
        const r = await runCli(['scan', '--kubeconfig', kubeconfig, '-o', 'json']);
        assert.equal(r.code, 0, r.stderr);
        assert.ok(
          api.requests.some((p) => p.startsWith(`${DS_PATH}/?`)),
          api.requests.join(' '),
        );
      },
    );
  });

  test('a plain http:// server (as kubectl proxy serves) without credentials works', BOUND, async () => {
    await withApi(
      () => false,
      (api) => ({ cluster: { server: api.url }, user: {} }),
      async (kubeconfig, api) => {
        const r = await runCli(['scan', '--kubeconfig', kubeconfig, '-o', 'json']);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(JSON.parse(r.stdout).kind, 'ScanReport');
        assert.ok(
          api.requests.some((p) => p.startsWith(`${DS_PATH}?`)),
          api.requests.join(' '),
        );
        assert.deepEqual([...new Set(api.authorizations)], [undefined]);
      },
      false,
    );
  });

  test(
    'a server without a scheme gets https:// when the kubeconfig has a CA, as client-go does',
    NEEDS_TLS,
    async () => {
      await withApi(
        () => false,
        (api) => ({
          ...securedParts(api),
          cluster: { server: `127.0.0.1:${api.port}`, 'certificate-authority-data': b64(pki.serverCert) },
        }),
        async (kubeconfig) => {
          const r = await runCli(['scan', '--kubeconfig', kubeconfig, '-o', 'json']);
          assert.equal(r.code, 0, r.stderr);
        },
      );
    },
  );

  test('a tokenFile (relative to the kubeconfig) is read and sent as the bearer token', NEEDS_TLS, async () => {
    await withApi(
      () => false,
      (api) => ({ ...securedParts(api), user: { tokenFile: 'token' } }),
      async (kubeconfig, api) => {
        fs.writeFileSync(path.join(path.dirname(kubeconfig), 'token'), `${TOKEN}\n`);
        const r = await runCli(['scan', '--kubeconfig', kubeconfig, '-o', 'json']);
        assert.equal(r.code, 0, r.stderr);
        assert.deepEqual([...new Set(api.authorizations)], [`Bearer ${TOKEN}`]);
      },
    );
  });
});

interface KubeconfigCase {
  name: string;
  parts: (api: FakeApi) => KubeconfigParts;
  code: number;
  re: RegExp;
}

const WHERE_CLUSTER = String.raw`^error: kubeconfig \S+kubeconfig-case: context "fake", cluster "fake-cluster": `;
const WHERE_USER = String.raw`^error: kubeconfig \S+kubeconfig-case: context "fake", user "fake-user": `;
/** An exec credential plugin: a node script run by client-node. */
const plugin = (script: string) => ({
  exec: { apiVersion: 'client.authentication.k8s.io/v1', command: process.execPath, args: ['-e', script] },
});

const KUBECONFIG_CASES: KubeconfigCase[] = [
  {
    name: 'server that is not a URL: exit 2 naming the field, password masked',
    parts: (api) => ({
      ...securedParts(api),
      cluster: { server: `https://admin:${PASSWORD}@`, 'certificate-authority-data': b64(pki.serverCert) },
    }),
    code: 2,
    re: new RegExp(`${WHERE_CLUSTER}server "https://admin:xxxxx@": not a URL`),
  },
  {
    name: 'server with a scheme other than http(s): exit 2',
    parts: (api) => ({ ...securedParts(api), cluster: { server: `ftp://127.0.0.1:${api.port}` } }),
    code: 2,
    re: new RegExp(`${WHERE_CLUSTER}server "ftp://127\\.0\\.0\\.1:\\d+": scheme ftp is not http or https$`),
  },
  {
    name: 'certificate-authority file that does not exist: exit 2',
    parts: (api) => ({ ...securedParts(api), cluster: { server: api.url, 'certificate-authority': 'no-such-ca.crt' } }),
    code: 2,
    re: new RegExp(`${WHERE_CLUSTER}certificate-authority \\S+/no-such-ca\\.crt: no such file$`),
  },
  {
    name: 'certificate-authority-data that is not PEM: exit 2',
    parts: (api) => ({
      ...securedParts(api),
      cluster: { server: api.url, 'certificate-authority-data': b64('not a certificate') },
    }),
    code: 2,
    re: new RegExp(`${WHERE_CLUSTER}certificate-authority-data: not a PEM certificate$`),
  },
  {
    name: 'client-certificate-data that is not PEM: exit 2',
    parts: (api) => securedParts(api, { 'client-certificate-data': b64('garbage') }),
    code: 2,
    re: new RegExp(`${WHERE_USER}client-certificate-data: not a PEM certificate$`),
  },
  {
    name: 'client-key-data that is not PEM: exit 2, the key not echoed',
    parts: (api) => securedParts(api, { 'client-key-data': b64(`junk ${TOKEN}`) }),
    code: 2,
    re: new RegExp(`${WHERE_USER}client-key-data: not a PEM private key$`),
  },
  {
    name: 'client certificate and key that do not match: exit 2',
    parts: (api) => securedParts(api, { 'client-key-data': b64(pki.otherKey) }),
    code: 2,
    re: new RegExp(
      `${WHERE_USER}client-certificate-data and client-key-data do not match: the key is not the certificate's$`,
    ),
  },
  {
    name: 'a client certificate without a key: exit 2',
    parts: (api) => securedParts(api, { 'client-key-data': undefined }),
    code: 2,
    re: new RegExp(`${WHERE_USER}client-certificate-data is set but neither client-key nor client-key-data$`),
  },
  {
    name: 'a tokenFile that does not exist: exit 2, not an unauthenticated request',
    parts: (api) => ({ ...securedParts(api), user: { tokenFile: 'missing-token' } }),
    code: 2,
    re: new RegExp(`${WHERE_USER}tokenFile \\S+/missing-token: no such file$`),
  },
  {
    name: 'an exec plugin that fails printing a secret: exit 3, its output not shown',
    parts: (api) => ({
      ...securedParts(api),
      user: plugin(`process.stderr.write(${JSON.stringify(EXEC_OUTPUT)}); process.exit(1)`),
    }),
    code: 3,
    re: /^error: cannot get credentials for context "fake": the exec plugin "\S+" of user "fake-user" failed \(its output is not shown; run it to see why\)$/,
  },
  {
    name: 'an exec plugin that prints no JSON: exit 3, its output not shown',
    parts: (api) => ({ ...securedParts(api), user: plugin(`process.stdout.write(${JSON.stringify(EXEC_OUTPUT)})`) }),
    code: 3,
    re: /^error: cannot get credentials for context "fake": the exec plugin "\S+" of user "fake-user" did not print an ExecCredential as JSON \(its output is not shown\)$/,
  },
  {
    name: 'an exec plugin token and a server error echoing it: exit 3, the token masked',
    parts: (api) => ({
      ...securedParts(api),
      user: plugin(
        `process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: ${JSON.stringify(EXEC_TOKEN)} } }))`,
      ),
    }),
    code: 3,
    re: new RegExp(
      `^error: the API server at ${SERVER} answered HTTP 500 Internal Server Error for GET ${DS_PATH}: token Bearer \\*\\*\\*$`,
    ),
  },
];

describe('kubeconfig errors: one line naming file, context, entry and field; no secret', () => {
  const echoToken: Handler = on(DS_PATH, (res, req) =>
    statusAnswer(res, 500, `token ${req.headers.authorization ?? ''}`),
  );
  for (const c of KUBECONFIG_CASES) {
    test(c.name, NEEDS_TLS, async () => {
      await withApi(echoToken, c.parts, async (kubeconfig, api) => {
        await expectFailure(['scan', '--kubeconfig', kubeconfig], c.code, c.re);
        if (c.code === 2) assert.deepEqual(api.requests, [], 'no request is made with a wrong kubeconfig');
      });
    });
  }
});

test('on a terminal, the progress line is cleared before the error line', NEEDS_TLS, async () => {
  const handler = on(NODES_PATH, (res) => statusAnswer(res, 500, 'etcd down'));
  await withApi(
    handler,
    (api) => securedParts(api),
    async (kubeconfig) => {
      const { io, output } = capturingIo({ stderrTty: true });
      const code = await main(['scan', '--kubeconfig', kubeconfig], io);
      const { stderr } = output();
      assert.equal(code, 3);
      // eslint-disable-next-line no-control-regex -- the check is for control characters
      assert.match(stderr, /^\r\u001b\[2Kloading: read 0 daemonsets in demo/);
      assert.match(
        stderr,
        new RegExp(
          `\\r\\u001b\\[2Kerror: the API server at ${SERVER} answered HTTP 500 Internal Server Error for GET ${NODES_PATH}: etcd down\\n$`,
        ),
      );
    },
  );
});
