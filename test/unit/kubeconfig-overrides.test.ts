// kubectl's connection flags over a kubeconfig: the precedence of client-go's DirectClientConfig
// (tools/clientcmd/client_config.go) and its validation (validation.go), as resolveConfig applies
// them. Cases named after an upstream test port it (client_config_test.go unless said).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadKubeconfig } from '../../src/client/kubeconfig.js';
import { resolveConfig, type ConfigOverrides, type ResolvedConfig } from '../../src/client/kubeconfig-overrides.js';
import { headerKeyEscape, impersonationHeaders } from '../../src/client/credentials.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-doctor-overrides-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A kubeconfig with contexts "clean" (current) and "other", clusters and users of the same names. */
function kubeconfig(
  name: string,
  cluster: Record<string, unknown>,
  user: Record<string, unknown>,
  extra: { currentContext?: string } = {},
): string {
  const file = path.join(dir, name);
  fs.writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      'current-context': extra.currentContext ?? 'clean',
      clusters: [
        { name: 'clean', cluster: { server: 'https://anything.com:8080', ...cluster } },
        { name: 'other', cluster: { server: 'https://other.example:6443' } },
      ],
      users: [
        { name: 'clean', user: { token: 'the-token', ...user } },
        { name: 'other', user: { token: 'other-token', as: 'carol' } },
        { name: 'basic', user: { username: 'admin', password: 'pw-1234' } },
      ],
      contexts: [
        { name: 'clean', context: { cluster: 'clean', user: 'clean', namespace: 'team' } },
        { name: 'other', context: { cluster: 'other', user: 'other' } },
      ],
    }),
  );
  return file;
}

function resolve(file: string, o: ConfigOverrides): ResolvedConfig {
  return resolveConfig(loadKubeconfig({ kubeconfig: file }), o, true);
}

interface Case {
  name: string;
  cluster?: Record<string, unknown>;
  user?: Record<string, unknown>;
  overrides: ConfigOverrides;
  want: (r: ResolvedConfig) => void;
}

const CASES: Case[] = [
  {
    name: 'no flags: the current context, its cluster, user and namespace',
    overrides: {},
    want: (r) => {
      assert.equal(r.contextName, 'clean');
      assert.equal(r.namespace, 'team');
      assert.equal(r.cluster.server, 'https://anything.com:8080');
      assert.equal(r.user?.token, 'the-token');
      assert.equal(r.impersonation, undefined);
    },
  },
  {
    name: 'TestInsecureOverridesCA: --insecure-skip-tls-verify drops the CA data',
    cluster: { 'certificate-authority-data': 'AAA=' },
    overrides: { insecureSkipTlsVerify: true },
    want: (r) => {
      assert.equal(r.cluster.skipTLSVerify, true);
      assert.equal(r.cluster.caData, undefined);
      assert.equal(r.cluster.caFile, undefined);
    },
  },
  {
    name: 'TestCAOverridesCAData: --certificate-authority replaces the CA data and the skip setting',
    cluster: { 'certificate-authority-data': 'AAA=', 'insecure-skip-tls-verify': true },
    overrides: { certificateAuthority: '/etc/ca.crt' },
    want: (r) => {
      assert.equal(r.cluster.skipTLSVerify, false);
      assert.equal(r.cluster.caFile, '/etc/ca.crt');
      assert.equal(r.cluster.caData, undefined);
      assert.equal(r.labels['certificate-authority'], '--certificate-authority');
    },
  },
  {
    name: 'TestTLSServerName: --tls-server-name is used',
    overrides: { tlsServerName: 'overridden-server-name' },
    want: (r) => assert.equal(r.cluster.tlsServerName, 'overridden-server-name'),
  },
  {
    name: "TestTLSServerNameClearsWhenServerNameSet: --server clears the kubeconfig's tls-server-name",
    cluster: { 'tls-server-name': 'kube.internal' },
    overrides: { server: 'http://something' },
    want: (r) => {
      assert.equal(r.cluster.server, 'http://something');
      assert.equal(r.cluster.tlsServerName, undefined);
    },
  },
  {
    name: '--server with --tls-server-name keeps the flag',
    cluster: { 'tls-server-name': 'kube.internal' },
    overrides: { server: 'https://10.0.0.1:6443', tlsServerName: 'kube.flag' },
    want: (r) => assert.equal(r.cluster.tlsServerName, 'kube.flag'),
  },
  {
    name: 'without --server, the kubeconfig tls-server-name stays',
    cluster: { 'tls-server-name': 'kube.internal' },
    overrides: { token: 'flag-token' },
    want: (r) => assert.equal(r.cluster.tlsServerName, 'kube.internal'),
  },
  {
    name: 'TestFullImpersonateConfig: as, as-uid, as-groups and as-user-extra of the kubeconfig user',
    user: {
      as: 'alice',
      'as-uid': 'abc123',
      'as-groups': ['group-1'],
      'as-user-extra': { 'some-key': ['some-value'] },
    },
    overrides: { server: 'http://something' },
    want: (r) =>
      assert.deepEqual(r.impersonation, {
        user: 'alice',
        uid: 'abc123',
        groups: ['group-1'],
        extra: { 'some-key': ['some-value'] },
      }),
  },
  {
    name: '--as replaces as; the kubeconfig groups stay (mergo: an unset flag overrides nothing)',
    user: { as: 'alice', 'as-groups': ['group-1'] },
    overrides: { as: 'bob' },
    want: (r) => assert.deepEqual(r.impersonation, { user: 'bob', groups: ['group-1'], extra: {} }),
  },
  {
    name: '--as-group replaces the whole as-groups list (a non-empty slice overrides)',
    user: { as: 'alice', 'as-groups': ['group-1', 'group-2'] },
    overrides: { asGroups: ['readers'] },
    want: (r) => assert.deepEqual(r.impersonation?.groups, ['readers']),
  },
  {
    name: '--as with repeated --as-group and --as-uid',
    overrides: { as: 'jane', asGroups: ['ds-readers', 'system:authenticated'], asUid: 'u-1' },
    want: (r) =>
      assert.deepEqual(r.impersonation, {
        user: 'jane',
        uid: 'u-1',
        groups: ['ds-readers', 'system:authenticated'],
        extra: {},
      }),
  },
  {
    name: '--token replaces the user token; an exec plugin is not run',
    user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'get-token', interactiveMode: 'Never' } },
    overrides: { token: 'flag-token' },
    want: (r) => {
      assert.equal(r.user?.token, 'flag-token');
      assert.equal(r.user?.exec, undefined);
    },
  },
  {
    name: '--client-certificate and --client-key replace the certificate and key data',
    user: { 'client-certificate-data': 'Q0VSVA==', 'client-key-data': 'S0VZ' },
    overrides: { clientCertificate: '/c.crt', clientKey: '/c.key' },
    want: (r) => {
      assert.equal(r.user?.certFile, '/c.crt');
      assert.equal(r.user?.certData, undefined);
      assert.equal(r.user?.keyFile, '/c.key');
      assert.equal(r.user?.keyData, undefined);
      assert.equal(r.labels['client-key'], '--client-key');
    },
  },
  {
    name: '--cluster picks another cluster with the context user',
    overrides: { cluster: 'other' },
    want: (r) => {
      assert.equal(r.cluster.server, 'https://other.example:6443');
      assert.equal(r.user?.token, 'the-token');
    },
  },
  {
    name: "--user picks another user, with its own as (its impersonation, not the context user's)",
    overrides: { user: 'other' },
    want: (r) => {
      assert.equal(r.user?.token, 'other-token');
      assert.equal(r.impersonation?.user, 'carol');
      assert.equal(r.cluster.server, 'https://anything.com:8080');
    },
  },
  {
    name: '--context picks the context, and --user and --cluster still win over it',
    overrides: { context: 'other', user: 'clean' },
    want: (r) => {
      assert.equal(r.contextName, 'other');
      assert.equal(r.cluster.server, 'https://other.example:6443');
      assert.equal(r.user?.token, 'the-token');
      assert.equal(r.namespace, undefined);
    },
  },
];

CASES.forEach((c, i) => {
  test(`resolveConfig: ${c.name}`, () => {
    c.want(resolve(kubeconfig(`ok-${i}`, c.cluster ?? {}, c.user ?? {}), c.overrides));
  });
});

const ERRORS: { name: string; user?: Record<string, unknown>; overrides: ConfigOverrides; re: RegExp }[] = [
  // validation.go#validateAuthInfo
  {
    name: 'validateAuthInfo: --as-group without a user to impersonate',
    overrides: { asGroups: ['g'] },
    re: /--as-group needs --as: .*without impersonating a user/,
  },
  {
    name: 'validateAuthInfo: --as-uid without a user to impersonate',
    overrides: { asUid: 'u' },
    re: /--as-uid needs --as/,
  },
  {
    name: 'validateAuthInfo: kubeconfig as-groups without as',
    user: { 'as-groups': ['g'] },
    overrides: {},
    re: /kubeconfig user "clean": as-uid, as-groups or as-user-extra without as/,
  },
  {
    name: 'validateAuthInfo: token beside basic auth is more than one method',
    overrides: { user: 'basic', token: 't-9999' },
    re: /--token: user "basic" of the kubeconfig has a username and password too/,
  },
  {
    name: 'kubeconfig as-groups that is no list',
    user: { as: 'a', 'as-groups': 'g' },
    overrides: {},
    re: /as-groups: not a list of strings/,
  },
  // rest/transport.go: a CA with the insecure flag is refused
  {
    name: '--certificate-authority with --insecure-skip-tls-verify',
    overrides: { certificateAuthority: '/ca', insecureSkipTlsVerify: true },
    re: /cannot be used together/,
  },
  // TestCreateMissingContext and getAuthInfo/getCluster: a name given by a flag must exist
  {
    name: 'TestCreateMissingContext: --context that does not exist',
    overrides: { context: 'clena' },
    re: /context "clena" not found in kubeconfig \(did you mean "clean"\?\)/,
  },
  {
    name: '--cluster that does not exist',
    overrides: { cluster: 'othr' },
    re: /--cluster "othr": no such cluster in the kubeconfig \(did you mean "other"\?\)/,
  },
  {
    name: '--user that does not exist',
    overrides: { user: 'nobody' },
    re: /--user "nobody": no such user in the kubeconfig/,
  },
];

ERRORS.forEach((c, i) => {
  test(`resolveConfig refuses: ${c.name}`, () => {
    assert.throws(() => resolve(kubeconfig(`err-${i}`, {}, c.user ?? {}), c.overrides), c.re);
  });
});

test('resolveConfig: --server alone is enough without a kubeconfig (kubectl --server=… --token=…)', () => {
  const empty = path.join(dir, 'empty');
  fs.writeFileSync(empty, JSON.stringify({ apiVersion: 'v1', kind: 'Config', clusters: [], users: [], contexts: [] }));
  const r = resolveConfig(
    loadKubeconfig({ kubeconfig: empty }),
    { server: 'https://10.1.2.3:6443', token: 'tok-1234', as: 'jane' },
    true,
  );
  assert.equal(r.cluster.server, 'https://10.1.2.3:6443');
  assert.equal(r.user?.token, 'tok-1234');
  assert.equal(r.impersonation?.user, 'jane');
  assert.throws(
    () => resolveConfig(loadKubeconfig({ kubeconfig: empty }), { token: 'tok-1234' }, true),
    /no kubeconfig found .*pass --server/,
  );
});

// clientcmd/loader.go#ClientConfigLoadingRules.Load: files of the KUBECONFIG list that do not exist
// are skipped; with none left the configuration is empty, and --server fills it.
test('resolveConfig: a KUBECONFIG list of missing files is an empty config: --server works, without it the files are named', () => {
  const list = [path.join(dir, 'gone-1'), path.join(dir, 'gone-2')].join(path.delimiter);
  const r = resolveConfig(loadKubeconfig({ kubeconfigEnv: list }), {
    server: 'https://10.1.2.3:6443',
    token: 'tok-1234',
  });
  assert.equal(r.cluster.server, 'https://10.1.2.3:6443');
  assert.equal(r.user?.token, 'tok-1234');
  assert.throws(
    () => resolveConfig(loadKubeconfig({ kubeconfigEnv: list }), { token: 'tok-1234' }),
    (err: Error) => err.message === `cannot load kubeconfig: KUBECONFIG=${list}: no such file`,
  );
});

// transport/round_trippers_test.go#TestImpersonationRoundTripper: one header line per group and
// per extra value; extra keys percent-encoded where a header name cannot hold them
// (TestHeaderEscapeRoundTrip).
test('impersonationHeaders: user, uid, one line per group, extra keys escaped', () => {
  assert.deepEqual(
    impersonationHeaders({
      user: 'alice',
      uid: 'abc123',
      groups: ['g1', 'g2'],
      extra: { 'example.com/team': ['a', 'b'], empty: [] },
    }),
    {
      'Impersonate-User': 'alice',
      'Impersonate-Uid': 'abc123',
      'Impersonate-Group': ['g1', 'g2'],
      'Impersonate-Extra-example.com%2Fteam': ['a', 'b'],
    },
  );
  assert.equal(headerKeyEscape('a b%c'), 'a%20b%25c');
  assert.equal(headerKeyEscape('scopes'), 'scopes');
  assert.equal(headerKeyEscape('ünï'), '%C3%BCn%C3%AF');
});
