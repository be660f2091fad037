// Kubeconfig helpers of the live loader: the server URL as client-go reads it, a server URL for
// messages with its password masked, and server text put on one escaped line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactedUrl, serverUrl } from '../../src/client/server-url.js';
import { oneLineServerText } from '../../src/client/api-errors.js';

// kubernetes v1.35 staging/src/k8s.io/client-go/rest/url_utils_test.go#TestValidatesHostParameter
// (defaultTLS false), plus https by default when TLS is configured, and values that are no URL.
const SERVER_CASES: [string, boolean, string | RegExp][] = [
  ['127.0.0.1', false, 'http://127.0.0.1/'],
  ['127.0.0.1:8080', false, 'http://127.0.0.1:8080/'],
  ['foo.bar.com', false, 'http://foo.bar.com/'],
  ['http://host/prefix', false, 'http://host/prefix'],
  ['http://host', false, 'http://host/'],
  ['host/server', false, /not a URL or a host:port pair/],
  ['kube.example:6443', true, 'https://kube.example:6443/'],
  ['https://admin:pw@10.0.0.1:6443', false, 'https://admin:pw@10.0.0.1:6443/'],
  ['', true, /not set/],
  ['https://', true, /not a URL/],
  ['https://host:99999', true, /not a URL/],
  ['ftp://host', true, /scheme ftp is not http or https/],
];

for (const [server, tls, want] of SERVER_CASES) {
  test(`serverUrl(${JSON.stringify(server)}, tls=${tls})`, () => {
    if (typeof want === 'string') assert.equal(serverUrl(server, tls).href, want);
    else assert.throws(() => serverUrl(server, tls), want);
  });
}

const REDACT_CASES: [string, string][] = [
  ['https://10.0.0.1:6443', 'https://10.0.0.1:6443'],
  ['https://admin:s3cret@10.0.0.1:6443', 'https://admin:xxxxx@10.0.0.1:6443'],
  ['https://admin:pa:ss@host/prefix', 'https://admin:xxxxx@host/prefix'],
  ['https://admin:s3cret@', 'https://admin:xxxxx@'],
  ['admin:s3cret@host', 'admin:xxxxx@host'],
  ['https://user@host', 'https://user@host'],
];

for (const [server, want] of REDACT_CASES) {
  test(`redactedUrl(${JSON.stringify(server)})`, () => {
    assert.equal(redactedUrl(server), want);
  });
}

const ONE_LINE_CASES: [string, string, string][] = [
  ['newlines and tabs', 'a\nb\r\tc', 'a\\nb\\r\\tc'],
  ['CSI and OSC sequences', '\u001b[2J\u001b]0;title\u0007', '^[[2J^[]0;title^G'],
  ['C1 control acting as CSI', 'x\u009b2Jy', 'x\\u009b2Jy'],
  ['bidirectional override and isolate', 'abc\u202edef\u2066', 'abc\\u202edef\\u2066'],
  ['line separator', 'a\u2028b', 'a\\u2028b'],
  ['plain text unchanged', 'pods is forbidden: User "x"', 'pods is forbidden: User "x"'],
];

for (const [name, text, want] of ONE_LINE_CASES) {
  test(`oneLineServerText: ${name}`, () => {
    assert.equal(oneLineServerText(text), want);
  });
}

test('oneLineServerText cuts long text', () => {
  assert.equal(oneLineServerText('x'.repeat(500), 10), `${'x'.repeat(10)}…`);
});
