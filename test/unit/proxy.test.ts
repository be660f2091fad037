// Proxy selection from the environment, as Go's httpproxy package decides it for kubectl.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { proxyFor } from '../../src/client/proxy.js';

describe('HTTPS_PROXY for https servers, NO_PROXY exclusions, loopback never proxied', () => {
  const env = {
    HTTPS_PROXY: 'http://proxy:3128',
    HTTP_PROXY: 'http://plain:80',
    NO_PROXY: '.internal,10.0.0.0/8,api.example.com:6443',
  };
  const cases: [string, string | undefined][] = [
    ['https://k8s.example.org:6443', 'http://proxy:3128'],
    ['http://k8s.example.org:8080', 'http://plain:80'],
    ['https://a.cluster.internal:6443', undefined],
    ['https://cluster.internal', undefined],
    ['https://10.1.2.3:6443', undefined],
    ['https://11.1.2.3:6443', 'http://proxy:3128'],
    ['https://api.example.com:6443', undefined],
    ['https://api.example.com:443', 'http://proxy:3128'],
    ['https://127.0.0.1:6443', undefined],
    ['https://localhost:6443', undefined],
  ];
  for (const [server, want] of cases) {
    test(server, () => {
      assert.equal(proxyFor(server, env), want, server);
    });
  }
  test('lower-case https_proxy, NO_PROXY=*, no proxy set', () => {
    assert.equal(proxyFor('https://x.example', { https_proxy: 'http://lower:1' }), 'http://lower:1');
    assert.equal(proxyFor('https://x.example', { HTTPS_PROXY: 'http://p:1', NO_PROXY: '*' }), undefined);
    assert.equal(proxyFor('https://x.example', {}), undefined);
  });
});
