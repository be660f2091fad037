/**
 * A fake Kubernetes API server on 127.0.0.1 for the live-fault tests: plain HTTP (as kubectl
 * proxy serves) or HTTPS with a self-signed certificate made by openssl for the test. It answers
 * every list with an empty list unless a test's handler answers first, and records the requests.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The credentials and keys a test run must never print. */
export interface Pki {
  dir: string;
  /** Self-signed serving certificate for IP 127.0.0.1 (also its own CA), and its key. */
  serverCert: string;
  serverKey: string;
  /** A client certificate and its key, and another key that does not match it. */
  clientCert: string;
  clientKey: string;
  otherKey: string;
}

/** Whether openssl can be run here (the HTTPS cases need it to make certificates). */
export function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

function selfSigned(dir: string, name: string, cn: string, san?: string): { cert: string; key: string } {
  const keyFile = path.join(dir, `${name}.key`);
  const certFile = path.join(dir, `${name}.crt`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '2',
      '-subj',
      `/CN=${cn}`,
      ...(san ? ['-addext', `subjectAltName=${san}`] : []),
    ],
    { stdio: 'ignore', timeout: 20_000 },
  );
  return { cert: fs.readFileSync(certFile, 'utf8'), key: fs.readFileSync(keyFile, 'utf8') };
}

/** Makes the test's certificates and keys in a fresh temporary directory. */
export function makePki(): Pki {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-doctor-fake-api-'));
  const server = selfSigned(dir, 'server', '127.0.0.1', 'IP:127.0.0.1');
  const client = selfSigned(dir, 'client', 'reader');
  const other = selfSigned(dir, 'other', 'other');
  return {
    dir,
    serverCert: server.cert,
    serverKey: server.key,
    clientCert: client.cert,
    clientKey: client.key,
    otherKey: other.key,
  };
}

/** Answers a request itself (returns true) or leaves it to the default empty list. */
export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => boolean | void;

export interface FakeApi {
  /** http(s)://127.0.0.1:<port> */
  url: string;
  port: number;
  /** Paths (with query) of the requests received, in order. */
  requests: string[];
  /** The Authorization headers received, in order. */
  authorizations: (string | undefined)[];
  /** Every header of every request, in order, each with all its values (a repeated header's lines). */
  headers: NodeJS.Dict<string[]>[];
  close(): Promise<void>;
}

/** An empty list, the answer to every list no handler takes. */
export function emptyList(res: http.ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ kind: 'List', apiVersion: 'v1', metadata: { resourceVersion: '1' }, items: [] }));
}

/** A Kubernetes Status answer. */
export function statusAnswer(
  res: http.ServerResponse,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(code, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message, code }));
}

/** Starts a fake API server on 127.0.0.1 (HTTPS when `pki` is given). */
export async function startFakeApi(handler: Handler, pki?: Pki): Promise<FakeApi> {
  const requests: string[] = [];
  const authorizations: (string | undefined)[] = [];
  const headers: NodeJS.Dict<string[]>[] = [];
  const sockets = new Set<net.Socket>();
  const listener = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(`${url.pathname}${url.search}`);
    authorizations.push(req.headers.authorization);
    headers.push(req.headersDistinct);
    if (!handler(req, res, url)) emptyList(res);
  };
  const server = pki
    ? https.createServer({ cert: pki.serverCert, key: pki.serverKey }, listener)
    : http.createServer(listener);
  server.on('connection', (s: net.Socket) => {
    if (!server.listening) {
      s.destroy();
      return;
    }
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('secureConnection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `${pki ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests,
    authorizations,
    headers,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        if (!server.listening) return resolve();
        server.close(() => resolve());
      }),
  };
}

/** The fields of one kubeconfig cluster and user (raw kubeconfig keys). */
export interface KubeconfigParts {
  cluster: Record<string, unknown>;
  user: Record<string, unknown>;
  namespace?: string;
}

/** Writes a one-context kubeconfig (context "fake", cluster "fake-cluster", user "fake-user"). */
export function writeKubeconfig(dir: string, name: string, parts: KubeconfigParts): string {
  const file = path.join(dir, `kubeconfig-${name}`);
  fs.writeFileSync(
    file,
    JSON.stringify(
      {
        apiVersion: 'v1',
        kind: 'Config',
        'current-context': 'fake',
        clusters: [{ name: 'fake-cluster', cluster: parts.cluster }],
        users: [{ name: 'fake-user', user: parts.user }],
        contexts: [
          {
            name: 'fake',
            context: { cluster: 'fake-cluster', user: 'fake-user', namespace: parts.namespace ?? 'demo' },
          },
        ],
      },
      null,
      2,
    ),
  );
  return file;
}

/** Base64 of a text, as kubeconfig *-data fields hold it. */
export function b64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}
