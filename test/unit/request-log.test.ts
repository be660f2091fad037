// kubectl's -v request log (src/client/request-log.ts): credentials masked as client-go masks them,
// bodies cut as rest/request.go#truncateBody cuts them, server text kept on one escaped line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskHeaderValue, RequestLog, statusText, truncateBody } from '../../src/client/request-log.js';

// kubernetes staging/src/k8s.io/client-go/transport/round_trippers_test.go#TestMaskValue
const MASK_CASES: [string, string, string][] = [
  ['Authorization', 'Basic YWxhZGRpbjpvcGVuc2VzYW1l', 'Basic <masked>'],
  ['Authorization', 'basic', 'basic'],
  ['Authorization', 'Basic', 'Basic'],
  ['Authorization', 'Bearer cn389ncoiwuencr', 'Bearer <masked>'],
  ['Authorization', 'Bearer', 'Bearer'],
  ['Authorization', 'bearer', 'bearer'],
  ['Authorization', 'bearer ', 'bearer'],
  ['Authorization', 'Negotiate cn389ncoiwuencr', 'Negotiate <masked>'],
  ['ABC', 'Negotiate cn389ncoiwuencr', 'Negotiate cn389ncoiwuencr'],
  ['Authorization', 'Negotiate', 'Negotiate'],
  ['Authorization', 'Negotiate ', 'Negotiate'],
  ['Authorization', 'negotiate', 'negotiate'],
  ['Authorization', 'abc cn389ncoiwuencr', '<masked>'],
  ['Authorization', '', ''],
  ['Proxy-Authorization', 'Basic dXNlcjpwdw==', 'Basic <masked>'],
];

for (const [key, value, want] of MASK_CASES) {
  test(`maskHeaderValue(${key}: ${JSON.stringify(value)})`, () => {
    assert.equal(maskHeaderValue(key, value), want);
  });
}

test('truncateBody: 1024 characters at -v=8, 10240 at -v=9, whole at -v=10', () => {
  const body = 'x'.repeat(20000);
  assert.equal(truncateBody(body, 8), `${'x'.repeat(1024)} [truncated ${20000 - 1024} chars]`);
  assert.equal(truncateBody(body, 9), `${'x'.repeat(10240)} [truncated ${20000 - 10240} chars]`);
  assert.equal(truncateBody(body, 10), body);
  assert.equal(truncateBody('short', 8), 'short');
});

test('statusText is Go http.Response.Status', () => {
  assert.equal(statusText(200), '200 OK');
  assert.equal(statusText(403), '403 Forbidden');
  assert.equal(statusText(599), '599');
});

const CLOCK = () => new Date('2026-12-05T05:30:01.250Z');

function logAt(verbosity: number, secrets: string[] = []): { lines: string[]; log: RequestLog } {
  const lines: string[] = [];
  return { lines, log: new RequestLog(verbosity, (l) => lines.push(l), secrets, CLOCK) };
}

test('RequestLog -v=6: one line per request after the answer; a failed request has no status', () => {
  const { lines, log } = logAt(6);
  const url = new URL('https://10.0.0.1:6443/api/v1/nodes?limit=500');
  log.request('GET', url, { Authorization: 'Bearer abc' });
  log.response('GET', url, 200, 12.7, {}, '{}');
  log.response('GET', url, 0, 3);
  assert.deepEqual(
    lines.map((l) => l.replace(/^I1205 05:30:01\.250000 +\d+ request-log\] /, '')),
    [
      'GET https://10.0.0.1:6443/api/v1/nodes?limit=500 200 OK in 12 milliseconds',
      'GET https://10.0.0.1:6443/api/v1/nodes?limit=500  in 3 milliseconds',
    ],
  );
});

test('RequestLog -v=8: headers masked, the password of a URL masked, a hostile body escaped and its secrets masked', () => {
  const { lines, log } = logAt(8, ['tok-SECRET-123']);
  const url = new URL('https://admin:pw-SECRET@10.0.0.1:6443/api/v1/pods');
  log.request('GET', url, {
    Accept: 'application/json',
    Authorization: 'Bearer tok-SECRET-123',
    'Impersonate-Group': ['a', 'b'],
  });
  log.response(
    'GET',
    url,
    403,
    5,
    { 'Content-Type': ['application/json'] },
    '{"message":"tok-SECRET-123 \u001b[2J\nnext"}',
  );
  const text = lines.join('\n');
  assert.ok(!text.includes('tok-SECRET-123') && !text.includes('pw-SECRET'), text);
  const bare = lines.map((l) => l.replace(/^I\d{4} [\d:.]+ +\d+ request-log\] /, ''));
  assert.deepEqual(bare, [
    'GET https://admin:xxxxx@10.0.0.1:6443/api/v1/pods',
    'Request Headers:',
    '    Accept: application/json',
    '    Authorization: Bearer <masked>',
    '    Impersonate-Group: a',
    '    Impersonate-Group: b',
    'Response Status: 403 Forbidden in 5 milliseconds',
    'Response Headers:',
    '    Content-Type: application/json',
    'Response Body: {"message":"*** ^[[2J\\nnext"}',
  ]);
});

test('RequestLog -v=7 shows basic auth given to node:http as a masked header; -v=9 writes a curl command', () => {
  const seven = logAt(7);
  const url = new URL('https://h:6443/api');
  seven.log.request('GET', url, { Accept: 'application/json' }, 'admin:pw');
  assert.ok(seven.lines.some((l) => l.endsWith('    Authorization: Basic <masked>')));
  const nine = logAt(9);
  nine.log.request('GET', url, { Accept: 'application/json', Authorization: 'Bearer t-1' });
  assert.match(
    nine.lines[0]!,
    /request-log\] curl -v -XGET -H "Accept: application\/json" -H "Authorization: Bearer <masked>" 'https:\/\/h:6443\/api'$/,
  );
});
