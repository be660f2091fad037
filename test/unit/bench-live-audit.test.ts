// The live benchmark's request counting from the API server's audit log, and its ratio text.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  describeRequest,
  isDsDoctor,
  isKubectl,
  medianOf,
  pairedRatio,
  ratioText,
  requestsOf,
  tally,
} from '../../bench/live-audit.js';

/** One audit event line (Metadata level), as kube-apiserver writes it with --audit-log-format=json. */
const event = (stage: string, userAgent: string, requestURI: string, verb = 'list') =>
  JSON.stringify({ kind: 'Event', level: 'Metadata', stage, verb, requestURI, userAgent, auditID: 'x' });

const LOG = [
  event('RequestReceived', 'ds-doctor', '/api/v1/nodes?limit=500&resourceVersion=0'),
  event('ResponseComplete', 'ds-doctor', '/api/v1/nodes?limit=500&resourceVersion=0'),
  event(
    'ResponseComplete',
    'kube-controller-manager/v1.35.4 (linux/amd64) kubernetes/daemon-set-controller',
    '/api/v1/pods?limit=500',
  ),
  event('ResponseComplete', 'kubectl/v1.35.4 (linux/amd64) kubernetes/$Format', '/api/v1/pods?limit=500'),
  event(
    'ResponseComplete',
    'kubectl/v1.35.4 (linux/amd64) kubernetes/$Format',
    '/api/v1/pods?limit=500&continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ',
  ),
  event(
    'ResponseComplete',
    'kubectl/v1.35.4 (linux/amd64) kubernetes/$Format',
    '/api/v1/pods?limit=500&continue=eyJ2IjoibWV0YS5rOHMuaW8vdjIifQ',
  ),
  '{"kind":"Event","stage":"ResponseComp', // a line cut short
  event('ResponseComplete', 'ds-doctor', '/apis/apps/v1/namespaces/logging/daemonsets/fluent-bit', 'get'),
  event('ResponseComplete', 'ds-doctor-bench-populate', '/api/v1/nodes', 'create'),
  '',
].join('\n');

describe('audit log: the requests of one client, one per ResponseComplete event', () => {
  const cases: [string, (ua: string) => boolean, number][] = [
    ['ds-doctor: its own agent exactly, not the populating client', isDsDoctor, 2],
    ['kubectl: any kubectl/<version> agent', isKubectl, 3],
  ];
  for (const [name, agent, count] of cases) {
    test(name, () => {
      assert.equal(requestsOf(LOG, agent).length, count);
    });
  }
});

describe('audit log: distinct requests, query sorted, continue tokens elided', () => {
  const cases: [string, { verb: string; requestURI: string }, string][] = [
    [
      'query parameters sorted',
      { verb: 'list', requestURI: '/api/v1/nodes?resourceVersion=0&limit=500' },
      'list /api/v1/nodes?limit=500&resourceVersion=0',
    ],
    [
      'a continue token shown as …',
      { verb: 'list', requestURI: '/api/v1/pods?limit=500&continue=abc' },
      'list /api/v1/pods?continue=…&limit=500',
    ],
    [
      'selectors decoded',
      { verb: 'list', requestURI: '/api/v1/pods?labelSelector=app%3Dagent&limit=500' },
      'list /api/v1/pods?labelSelector=app=agent&limit=500',
    ],
    [
      'no query',
      { verb: 'get', requestURI: '/apis/apps/v1/namespaces/a/daemonsets/b' },
      'get /apis/apps/v1/namespaces/a/daemonsets/b',
    ],
  ];
  for (const [name, request, want] of cases) {
    test(name, () => {
      assert.equal(describeRequest(request), want);
    });
  }
  test('pages of one list count as requests and fold into one distinct line', () => {
    assert.deepEqual(tally(requestsOf(LOG, isKubectl)), {
      count: 3,
      distinct: [
        ['list /api/v1/pods?continue=…&limit=500', 2],
        ['list /api/v1/pods?limit=500', 1],
      ],
    });
  });
});

describe('figures: ratio to the baseline and median', () => {
  const ratios: [string, number | undefined, number | undefined, string][] = [
    ['faster than the baseline', 620, 1000, '0.62×'],
    ['slower than the baseline', 3000, 1000, '3.00×'],
    ['no baseline', 620, undefined, '—'],
    ['a zero baseline', 620, 0, '—'],
    ['no value', undefined, 1000, '—'],
  ];
  for (const [name, value, baseline, want] of ratios) {
    test(`ratio: ${name}`, () => {
      assert.equal(ratioText(value, baseline), want);
    });
  }
  const medians: [string, number[], number | undefined][] = [
    ['odd count', [3, 1, 2], 2],
    ['even count: the lower middle', [4, 1, 3, 2], 2],
    ['one value', [7], 7],
    ['none', [], undefined],
  ];
  for (const [name, values, want] of medians) {
    test(`median: ${name}`, () => {
      assert.equal(medianOf(values), want);
    });
  }
  const paired: [string, (number | undefined)[], (number | undefined)[], number | undefined][] = [
    // Round 2 is slow for both: the ratio of medians (2000 / 1000) would say 2.00×.
    ['each round its own ratio', [1000, 4000, 2000], [1000, 4000, 500], 1],
    ['a failed run drops its round', [1000, undefined, 3000], [500, 800, 1000], 2],
    ['a zero baseline drops its round', [1000, 900], [0, 300], 3],
    ['rounds past the shorter list are not paired', [1000, 2000, 9000], [1000, 1000], 1],
    ['no round with both', [undefined], [1000], undefined],
  ];
  for (const [name, top, bottom, want] of paired) {
    test(`paired ratio: ${name}`, () => {
      assert.equal(pairedRatio(top, bottom), want);
    });
  }
});
