/**
 * A minimal Kubernetes API client for the differential runner: JSON over node:https with the
 * admin token, a keep-alive agent (the runner makes thousands of small requests: leases,
 * status patches, polls), and the scheduler's /metrics.
 */
import https from 'node:https';
import type { KubeObject } from '../../src/model/k8s-types.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly method: string,
    readonly path: string,
    readonly body: string,
  ) {
    super(`${method} ${path}: HTTP ${status}: ${body.slice(0, 500)}`);
  }
}

export type PatchType = 'merge' | 'strategic' | 'json';

const PATCH_TYPES: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  json: 'application/json-patch+json',
};

export interface ListResult<T> {
  items: T[];
  metadata?: { resourceVersion?: string };
}

/** Talks to one API server. */
export class Api {
  private readonly agent: https.Agent;
  private readonly url: URL;

  constructor(
    server: string,
    private readonly token: string,
    ca: string,
  ) {
    this.url = new URL(server);
    this.agent = new https.Agent({ keepAlive: true, maxSockets: 8, ca });
  }

  /** One request; resolves the decoded JSON body, rejects with ApiError on a non-2xx status. */
  request<T>(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<T> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise<T>((resolve, reject) => {
      const req = https.request(
        {
          host: this.url.hostname,
          port: this.url.port,
          path,
          method,
          agent: this.agent,
          timeout: 30_000,
          headers: {
            Authorization: `Bearer ${this.token}`,
            Accept: 'application/json',
            ...(payload !== undefined
              ? { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(payload) }
              : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const status = res.statusCode ?? 0;
            if (status < 200 || status >= 300) {
              reject(new ApiError(status, method, path, text));
              return;
            }
            try {
              resolve((text ? JSON.parse(text) : {}) as T);
            } catch (e) {
              reject(new Error(`${method} ${path}: bad JSON: ${(e as Error).message}`));
            }
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: timeout`)));
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  get<T>(path: string): Promise<T> {
    return this.request<T>('GET', path);
  }

  async list<T>(path: string, query: Record<string, string> = {}): Promise<T[]> {
    const qs = new URLSearchParams(query).toString();
    const r = await this.request<ListResult<T>>('GET', qs ? `${path}?${qs}` : path);
    return r.items ?? [];
  }

  create<T extends KubeObject>(path: string, obj: T): Promise<T> {
    return this.request<T>('POST', path, obj);
  }

  patch<T>(path: string, patch: unknown, type: PatchType = 'merge'): Promise<T> {
    return this.request<T>('PATCH', path, patch, PATCH_TYPES[type]);
  }

  put<T>(path: string, obj: T): Promise<T> {
    return this.request<T>('PUT', path, obj);
  }

  /** DELETE; a 404 counts as done. `gracePeriodSeconds` 0 removes a bound pod at once. */
  async delete(path: string, opts: { gracePeriodSeconds?: number; propagationPolicy?: string } = {}): Promise<void> {
    try {
      await this.request('DELETE', path, { kind: 'DeleteOptions', apiVersion: 'v1', ...opts });
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return;
      throw e;
    }
  }

  /** Plain-text GET of another component's HTTPS endpoint (self-signed) with the admin token. */
  metrics(port: number, path = '/metrics'): Promise<string> {
    return new Promise((resolve, reject) => {
      const req = https.request(
        {
          host: '127.0.0.1',
          port,
          path,
          method: 'GET',
          rejectUnauthorized: false,
          timeout: 10_000,
          headers: { Authorization: `Bearer ${this.token}` },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if ((res.statusCode ?? 0) !== 200)
              reject(new Error(`GET :${port}${path}: HTTP ${res.statusCode}: ${text.slice(0, 200)}`));
            else resolve(text);
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`GET :${port}${path}: timeout`)));
      req.on('error', reject);
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** API paths. */
export const paths = {
  namespaces: '/api/v1/namespaces',
  namespace: (ns: string) => `/api/v1/namespaces/${ns}`,
  nodes: '/api/v1/nodes',
  node: (n: string) => `/api/v1/nodes/${n}`,
  nodeStatus: (n: string) => `/api/v1/nodes/${n}/status`,
  pods: (ns?: string) => (ns ? `/api/v1/namespaces/${ns}/pods` : '/api/v1/pods'),
  pod: (ns: string, n: string) => `/api/v1/namespaces/${ns}/pods/${n}`,
  podStatus: (ns: string, n: string) => `/api/v1/namespaces/${ns}/pods/${n}/status`,
  events: (ns: string) => `/api/v1/namespaces/${ns}/events`,
  quotas: (ns: string) => `/api/v1/namespaces/${ns}/resourcequotas`,
  limitRanges: (ns: string) => `/api/v1/namespaces/${ns}/limitranges`,
  daemonSets: (ns: string) => `/apis/apps/v1/namespaces/${ns}/daemonsets`,
  daemonSet: (ns: string, n: string) => `/apis/apps/v1/namespaces/${ns}/daemonsets/${n}`,
  revisions: (ns: string) => `/apis/apps/v1/namespaces/${ns}/controllerrevisions`,
  leases: '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases',
  lease: (n: string) => `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${n}`,
};
