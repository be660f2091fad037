import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { imageTagMutable, parseImage } from '../../../../src/lint/rules/image-tag-mutable.js';
import { goodDaemonSet, ruleTester } from '../rule-tester.js';

const withImage = (image: string) => goodDaemonSet().with((d) => { d.spec!.template!.spec!.containers![0]!.image = image; });
const PATH = 'spec.template.spec.containers[0].image';

ruleTester(imageTagMutable, {
  valid: [
    { name: 'a version tag', ds: withImage('fluent/fluent-bit:3.0.7').build() },
    { name: 'a digest', ds: withImage('quay.io/cilium/cilium@sha256:6aa840986a3a9722cd967ef63248d675a87add7e1704740902d5d3162f0c0def').build() },
    { name: 'latest pinned by digest', ds: withImage('example/agent:latest@sha256:6aa840986a3a9722cd967ef63248d675a87add7e1704740902d5d3162f0c0def').build() },
    { name: 'a registry port is not a tag', ds: withImage('registry.local:5000/team/agent:2.1.0').build() },
  ],
  invalid: [
    { name: 'latest', ds: withImage('example/agent:latest').build(), findings: [{ severity: 'warning', path: PATH, message: /uses example\/agent:latest: /, fix: /image: example\/agent:<version>/ }] },
    { name: 'no tag', ds: withImage('busybox').build(), findings: [{ severity: 'warning', path: PATH, message: /\(no tag: latest\)/ }] },
    { name: 'registry port without tag', ds: withImage('registry.local:5000/team/agent').build(), findings: [{ severity: 'warning', path: PATH, fix: /image: registry\.local:5000\/team\/agent:<version>/ }] },
    {
      name: 'init containers too',
      ds: goodDaemonSet().with((d) => { d.spec!.template!.spec!.initContainers = [{ name: 'init', image: 'busybox:latest' }]; }).build(),
      findings: [{ severity: 'warning', path: 'spec.template.spec.initContainers[0].image', message: /init container init/ }],
    },
  ],
});

describe('parseImage', () => {
  const cases: [string, ReturnType<typeof parseImage>][] = [
    ['nginx', { repository: 'nginx' }],
    ['nginx:1.27', { repository: 'nginx', tag: '1.27' }],
    ['host:5000/a/b', { repository: 'host:5000/a/b' }],
    ['host:5000/a/b:v1@sha256:abc', { repository: 'host:5000/a/b', tag: 'v1', digest: 'sha256:abc' }],
  ];
  for (const [image, want] of cases) it(image, () => assert.deepEqual(parseImage(image), want));
});
