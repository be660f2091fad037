import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { imageTagMutable, parseImage } from '../../../../src/lint/rules/image-tag-mutable.js';
import { goodDaemonSet, ruleTester } from '../rule-tester.js';

const withImage = (image: string) =>
  goodDaemonSet().with((d) => {
    d.spec!.template!.spec!.containers![0]!.image = image;
  });
const PATH = 'spec.template.spec.containers[0].image';

ruleTester(imageTagMutable, {
  valid: [
    { name: 'a version tag', ds: withImage('fluent/fluent-bit:3.0.7').build() },
    {
      name: 'a digest',
      ds: withImage(
        'quay.io/cilium/cilium@sha256:6aa840986a3a9722cd967ef63248d675a87add7e1704740902d5d3162f0c0def',
      ).build(),
    },
    {
      name: 'latest pinned by digest',
      ds: withImage(
        'example/agent:latest@sha256:6aa840986a3a9722cd967ef63248d675a87add7e1704740902d5d3162f0c0def',
      ).build(),
    },
    { name: 'a registry port is not a tag', ds: withImage('registry.local:5000/team/agent:2.1.0').build() },
    {
      name: 'a date-stamped build (kindnetd v20240813-…)',
      ds: withImage('docker.io/kindest/kindnetd:v20240813-c6f155d6').build(),
    },
    {
      name: 'a version with a distro suffix',
      ds: withImage('docker.io/timberio/vector:0.57.0-distroless-libc').build(),
    },
    { name: 'a major.minor tag', ds: withImage('registry.k8s.io/dns/k8s-dns-node-cache:1.23').build() },
    { name: 'a release tag with a full version', ds: withImage('example/agent:release-1.4.2').build() },
    { name: 'a build number', ds: withImage('example/agent:build-20240813').build() },
    {
      // Issue 39: GKE's preloaded driver installer (cos-nvidia-installer:fixed): the kubelet never pulls it.
      name: 'imagePullPolicy Never: a preloaded image cannot drift',
      ds: withImage('cos-nvidia-installer:fixed')
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.imagePullPolicy = 'Never';
        })
        .build(),
    },
  ],
  invalid: [
    {
      name: 'latest',
      ds: withImage('example/agent:latest').build(),
      findings: [
        {
          severity: 'warning',
          path: PATH,
          message: /uses example\/agent:latest \(latest is a moving tag\): /,
          fix: /image: example\/agent:<version>/,
        },
      ],
    },
    // Issue 14 §3: branch and channel tags beyond latest, as vendors publish them.
    ...(
      [
        ['quay.io/metallb/speaker:main', /main is a branch or channel tag/],
        ['example/agent:master', /master is a branch or channel tag/],
        ['ghcr.io/aojea/kindnetd:stable', /stable is a branch or channel tag/],
        ['intel/intel-gpu-plugin:devel', /devel is a branch or channel tag/],
        ['example/agent:nightly', /nightly/],
        ['example/agent:canary', /canary/],
        // A release-branch tag whose only number is a major version (sriov-cni's release-v1).
        ['nfvpe/sriov-cni:release-v1', /a major-version tag/],
        ['example/agent:edge', /edge/],
        ['example/agent:dev', /dev is a branch/],
        ['example/agent:1.4.0-SNAPSHOT', /tag part "snapshot"/],
        ['rocm/k8s-device-plugin:labeller-latest', /tag part "latest"/],
        ['example/agent:debian', /a tag without a version/],
        ['fluent/fluentd-kubernetes-daemonset:v1-debian-elasticsearch', /a major-version tag/],
      ] as const
    ).map(([image, message]) => ({
      name: `floating: ${image}`,
      ds: withImage(image).build(),
      findings: [{ severity: 'warning' as const, path: PATH, message }],
    })),
    {
      name: 'no tag',
      ds: withImage('busybox').build(),
      findings: [{ severity: 'warning', path: PATH, message: /\(no tag: latest\)/ }],
    },
    {
      name: 'registry port without tag',
      ds: withImage('registry.local:5000/team/agent').build(),
      findings: [{ severity: 'warning', path: PATH, fix: /image: registry\.local:5000\/team\/agent:<version>/ }],
    },
    {
      name: 'init containers too',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.template!.spec!.initContainers = [{ name: 'init', image: 'busybox:latest' }];
        })
        .build(),
      findings: [
        { severity: 'warning', path: 'spec.template.spec.initContainers[0].image', message: /init container init/ },
      ],
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
