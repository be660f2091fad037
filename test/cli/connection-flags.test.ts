// kubectl's connection flags through the real CLI against a fake API server that records what it
// is sent: impersonation headers (flags and every kubeconfig field), --token, -s/--server, TLS
// flags, flags before the command, -v request logs, and one clear line for bad input. No output
// ever holds a credential.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli, type CliRun } from '../harness.js';
import {
  b64,
  hasOpenssl,
  makePki,
  startFakeApi,
  writeKubeconfig,
  type FakeApi,
  type KubeconfigParts,
  type Pki,
} from './fake-api.js';

const TOKEN = 'kc-SECRET-1b2c3d4e5f';
const FLAG_TOKEN = 'flag-SECRET-9a8b7c6d';
const BOUND = { timeout: 20_000 };
const OPENSSL = hasOpenssl();
const NEEDS_TLS = OPENSSL ? BOUND : { ...BOUND, skip: 'openssl not found (needed to make test certificates)' };
const DS_PATH = '/apis/apps/v1/namespaces/demo/daemonsets';

let pki: Pki | undefined;
let dir: string;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-doctor-conn-'));
  if (OPENSSL) pki = makePki();
});
after(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  if (pki) fs.rmSync(pki.dir, { recursive: true, force: true });
});

function assertNoSecret(r: CliRun): void {
  for (const s of [TOKEN, FLAG_TOKEN, ...(pki ? [b64(pki.clientKey)] : [])]) {
    assert.ok(!r.stdout.includes(s) && !r.stderr.includes(s), `a secret was printed: ${r.stderr}`);
  }
}

/** A plain-HTTP fake server and a kubeconfig for it; `user` adds raw kubeconfig user fields. */
async function withApi(
  user: Record<string, unknown>,
  fn: (kubeconfig: string, api: FakeApi) => Promise<void>,
  cluster?: (api: FakeApi) => Record<string, unknown>,
  tls = false,
): Promise<void> {
  const api = await startFakeApi(() => false, tls ? pki : undefined);
  try {
    const parts: KubeconfigParts = {
      cluster: cluster ? cluster(api) : { server: api.url },
      user: { token: TOKEN, ...user },
    };
    await fn(writeKubeconfig(dir, `kc-${api.port}`, parts), api);
  } finally {
    await api.close();
  }
}

/** The values of a header over all requests (each request's lines joined by "|"). */
function seen(api: FakeApi, header: string): string[] {
  return [...new Set(api.headers.map((h) => (h[header.toLowerCase()] ?? []).join('|')))];
}

test('--as, repeated --as-group and --as-uid are sent on every request, with the kubeconfig token', BOUND, async () => {
  await withApi({}, async (kc, api) => {
    const r = await runCli([
      'scan',
      '--kubeconfig',
      kc,
      '--as',
      'jane',
      '--as-group',
      'ds-readers',
      '--as-group',
      'system:authenticated',
      '--as-uid',
      'u-42',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(api.requests.length > 0);
    assert.deepEqual(seen(api, 'Impersonate-User'), ['jane']);
    assert.deepEqual(seen(api, 'Impersonate-Group'), ['ds-readers|system:authenticated']);
    assert.deepEqual(seen(api, 'Impersonate-Uid'), ['u-42']);
    assert.deepEqual([...new Set(api.authorizations)], [`Bearer ${TOKEN}`]);
    assertNoSecret(r);
  });
});

test("a kubeconfig user's as, as-groups, as-uid and as-user-extra are all sent", BOUND, async () => {
  await withApi(
    { as: 'alice', 'as-groups': ['g1', 'g2'], 'as-uid': 'abc123', 'as-user-extra': { 'example.com/team': ['sre'] } },
    async (kc, api) => {
      const r = await runCli(['scan', '--kubeconfig', kc]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(seen(api, 'Impersonate-User'), ['alice']);
      assert.deepEqual(seen(api, 'Impersonate-Group'), ['g1|g2']);
      assert.deepEqual(seen(api, 'Impersonate-Uid'), ['abc123']);
      assert.deepEqual(seen(api, 'Impersonate-Extra-example.com%2Fteam'), ['sre']);
    },
  );
});

test('no impersonation flag and none in the kubeconfig: no Impersonate header', BOUND, async () => {
  await withApi({}, async (kc, api) => {
    const r = await runCli(['scan', '--kubeconfig', kc]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(api.headers.every((h) => !Object.keys(h).some((k) => k.startsWith('impersonate-'))));
  });
});

test('--token replaces the kubeconfig token', BOUND, async () => {
  await withApi({}, async (kc, api) => {
    const r = await runCli(['scan', '--kubeconfig', kc, '--token', FLAG_TOKEN]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual([...new Set(api.authorizations)], [`Bearer ${FLAG_TOKEN}`]);
    assertNoSecret(r);
  });
});

test('-s/--server replaces the cluster server (the kubeconfig points nowhere)', BOUND, async () => {
  await withApi(
    {},
    async (kc, api) => {
      const r = await runCli(['scan', '--kubeconfig', kc, '-s', api.url]);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(api.requests.some((p) => p.startsWith(DS_PATH)));
    },
    () => ({ server: 'http://127.0.0.1:9' }),
  );
});

test(
  'flags before the command, as kubectl plugins take them (kubectl ds-doctor --context x -n ns scan)',
  BOUND,
  async () => {
    await withApi({}, async (kc, api) => {
      const r = await runCli([
        '--kubeconfig',
        kc,
        '--context',
        'fake',
        '-n',
        'kube-system',
        '--as=jane',
        'scan',
        '-o',
        'json',
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(
        api.requests.some((p) => p.startsWith('/apis/apps/v1/namespaces/kube-system/daemonsets')),
        api.requests.join('\n'),
      );
      assert.deepEqual(seen(api, 'Impersonate-User'), ['jane']);
    });
  },
);

test('a mistyped flag before the command is named with its suggestion', BOUND, async () => {
  const r = await runCli(['--contxt', 'prod', 'scan']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /unknown option '--contxt' \(did you mean "--context"\?\)/);
});

test('-v=6 logs each request as kubectl: method, URL, status and time; never a credential', BOUND, async () => {
  await withApi({}, async (kc, api) => {
    const r = await runCli(['scan', '--kubeconfig', kc, '-v=6']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stderr.trimEnd().split('\n');
    assert.match(lines[0]!, /^I\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ request-log\] Config loaded from file: {2}\S+kc-\d+$/);
    const listed = lines.filter((l) => / GET http:\/\/127\.0\.0\.1:\d+\/\S+ 200 OK in \d+ milliseconds$/.test(l));
    assert.equal(listed.length, api.requests.length, r.stderr);
    assert.ok(listed.some((l) => l.includes(`${DS_PATH}?limit=500`)));
    assert.ok(!r.stderr.includes('Request Headers'));
    assertNoSecret(r);
  });
});

test('-v=7 adds request headers (Authorization masked, impersonation shown); -v=8 adds bodies', BOUND, async () => {
  await withApi({}, async (kc) => {
    const seven = await runCli(['scan', '--kubeconfig', kc, '--v=7', '--as', 'jane', '--as-group', 'readers']);
    assert.equal(seven.code, 0, seven.stderr);
    assert.match(seven.stderr, /request-log\] Request Headers:\n.*request-log\] {5}Accept: application\/json\n/);
    assert.match(seven.stderr, /request-log\] {5}Authorization: Bearer <masked>\n/);
    assert.match(seven.stderr, /request-log\] {5}Impersonate-Group: readers\n/);
    assert.match(seven.stderr, /request-log\] Response Status: 200 OK in \d+ milliseconds\n/);
    assert.ok(!seven.stderr.includes('Response Body'));
    assertNoSecret(seven);
    const eight = await runCli(['scan', '--kubeconfig', kc, '-v', '8']);
    assert.match(eight.stderr, /request-log\] Response Headers:\n/);
    assert.match(eight.stderr, /request-log\] Response Body: \{"kind":"List"/);
    assertNoSecret(eight);
  });
});

interface BadCase {
  name: string;
  argv: (kc: string) => string[];
  re: RegExp;
  code?: number;
}

const BAD: BadCase[] = [
  {
    name: '-v that is not a number',
    argv: (kc) => ['scan', '--kubeconfig', kc, '-v=loud'],
    re: /^error: -v: "loud" is not a log level/,
  },
  {
    name: '--as-group without --as',
    argv: (kc) => ['scan', '--kubeconfig', kc, '--as-group', 'g'],
    re: /^error: --as-group needs --as: /,
  },
  {
    name: '--client-key without --client-certificate',
    argv: (kc) => ['scan', '--kubeconfig', kc, '--client-key', path.join(dir, 'k.pem')],
    re: /^error: --client-key is given without --client-certificate \(and user "fake-user" has no client-certificate or client-certificate-data\)$/,
  },
  {
    name: 'an unreadable --client-certificate',
    argv: (kc) => [
      'scan',
      '--kubeconfig',
      kc,
      '--client-certificate',
      '/nonexistent/c.crt',
      '--client-key',
      '/nonexistent/c.key',
    ],
    re: /^error: --client-certificate \/nonexistent\/c\.crt: no such file$/,
  },
  {
    name: 'an unreadable --certificate-authority',
    argv: (kc) => ['scan', '--kubeconfig', kc, '--certificate-authority', '/nonexistent/ca.crt'],
    re: /^error: --certificate-authority \/nonexistent\/ca\.crt: no such file$/,
  },
  {
    name: 'a --server that is no URL',
    argv: (kc) => ['scan', '--kubeconfig', kc, '--server', 'ftp://x'],
    re: /^error: --server "ftp:\/\/x": scheme ftp is not http or https$/,
  },
  {
    name: '--certificate-authority with --insecure-skip-tls-verify=true',
    argv: (kc) => ['scan', '--kubeconfig', kc, '--certificate-authority', '/ca', '--insecure-skip-tls-verify=true'],
    re: /cannot be used together/,
  },
  {
    name: 'a --user not in the kubeconfig',
    argv: (kc) => ['scan', '--kubeconfig', kc, '--user', 'fake-usr'],
    re: /^error: --user "fake-usr": no such user in the kubeconfig \(did you mean "fake-user"\?\)$/,
    code: 3,
  },
];

for (const c of BAD) {
  test(`bad input: ${c.name}: one line naming the flag, no credential`, BOUND, async () => {
    fs.writeFileSync(
      path.join(dir, 'k.pem'),
      '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n',
    );
    await withApi({}, async (kc, api) => {
      const r = await runCli(c.argv(kc));
      assert.equal(r.code, c.code ?? 2, r.stderr);
      assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
      assert.match(r.stderr.trimEnd(), c.re);
      assert.equal(api.requests.length, 0, 'no request is made');
      assertNoSecret(r);
    });
  });
}

test(
  'HTTPS: --certificate-authority, --client-certificate/--client-key and --insecure-skip-tls-verify=true reach a server the kubeconfig cannot',
  NEEDS_TLS,
  async () => {
    const ca = path.join(dir, 'server-ca.crt');
    const cert = path.join(dir, 'client.crt');
    const key = path.join(dir, 'client.key');
    fs.writeFileSync(ca, pki!.serverCert);
    fs.writeFileSync(cert, pki!.clientCert);
    fs.writeFileSync(key, pki!.clientKey);
    // The kubeconfig trusts no CA for this server: without a flag, the TLS check fails.
    await withApi(
      {},
      async (kc, api) => {
        const plain = await runCli(['scan', '--kubeconfig', kc]);
        assert.equal(plain.code, 3);
        assert.match(plain.stderr, /TLS failure/);
        const withCa = await runCli([
          'scan',
          '--kubeconfig',
          kc,
          '--certificate-authority',
          ca,
          '--client-certificate',
          cert,
          '--client-key',
          key,
        ]);
        assert.equal(withCa.code, 0, withCa.stderr);
        const insecure = await runCli(['scan', '--kubeconfig', kc, '--insecure-skip-tls-verify=true']);
        assert.equal(insecure.code, 0, insecure.stderr);
        const verified = await runCli(['scan', '--kubeconfig', kc, '--insecure-skip-tls-verify=false']);
        assert.equal(verified.code, 3, 'false keeps verification on');
        assert.ok(api.requests.length > 0);
        for (const r of [plain, withCa, insecure, verified]) assertNoSecret(r);
      },
      (api) => ({ server: api.url }),
      true,
    );
  },
);
