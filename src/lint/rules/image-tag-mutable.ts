/**
 * `image-tag-mutable`: images are pinned to a version tag or a digest.
 * Motivation: DaemonSet pods are created over time (new nodes, evictions, failed pods), each
 * pulling what the tag means then; Popeye 100/101, kube-linter latest-tag, Polaris
 * tagNotSpecified; issue 14 §3 (branch and channel tags such as `main`, `stable`, `devel`,
 * tags without a version).
 */
import type { LintRule, RuleFinding } from '../types.js';
import { containerLabel, templateContainers } from '../template.js';

/** The repository, tag and digest of an image reference (`registry:5000/a/b:tag@sha256:…`). */
export function parseImage(image: string): { repository: string; tag?: string; digest?: string } {
  const at = image.indexOf('@');
  const digest = at >= 0 ? image.slice(at + 1) : undefined;
  const name = at >= 0 ? image.slice(0, at) : image;
  // A colon before the last slash is a registry port, not a tag.
  const colon = name.lastIndexOf(':');
  const tag = colon > name.lastIndexOf('/') ? name.slice(colon + 1) : undefined;
  const repository = tag !== undefined ? name.slice(0, colon) : name;
  return { repository, ...(tag !== undefined ? { tag } : {}), ...(digest !== undefined ? { digest } : {}) };
}

/** Branch and channel words: a tag that is one of them, or has one as a `-`/`.`/`_` part, moves. */
const CHANNELS = new Set([
  'latest',
  'master',
  'main',
  'snapshot',
  'canary',
  'nightly',
  'edge',
  'dev',
  'devel',
  'develop',
  'development',
  'stable',
  'unstable',
  'head',
  'trunk',
  'next',
  'rolling',
  'current',
  'testing',
]);

/**
 * Why `tag` names a moving target, or undefined for a version tag: no tag (latest), a branch or
 * channel word (`main`, `stable`, `1.2-SNAPSHOT`, `labeller-latest`), no digit at all (no
 * version), or a major version only (`v1`, `v1-debian-elasticsearch`), which moves with every
 * minor release. Build stamps without dots (`v20240813-e1dc4e3c`) count as versions.
 */
export function floatingTag(tag: string | undefined): string | undefined {
  if (tag === undefined) return 'no tag: latest';
  const parts = tag.toLowerCase().split(/[-._]/);
  const channel = parts.find((p) => CHANNELS.has(p));
  if (channel)
    return tag.toLowerCase() === channel
      ? `${channel} is a ${channel === 'latest' ? 'moving tag' : 'branch or channel tag'}`
      : `tag part "${channel}" is a branch or channel`;
  if (!/\d/.test(tag)) return 'a tag without a version';
  if (/^v?\d{1,3}($|-[a-z])/i.test(tag)) return 'a major-version tag, which moves with every release of that major';
  // A release-branch tag (`release-v1`, `stable_v2`): its only number is a major version.
  if (!/\d[._]\d|\d{4,}/.test(tag) && tag.split(/[-_]/).some((p) => /^v?\d{1,3}$/i.test(p)))
    return 'a major-version tag, which moves with every release of that major';
  return undefined;
}

/** The `image-tag-mutable` rule, as the registry lists it. */
export const imageTagMutable: LintRule = {
  meta: {
    id: 'image-tag-mutable',
    severity: 'warning',
    description:
      'Every image has a version tag (not `latest`, a branch or channel tag such as `main`, `stable`, `nightly`, `devel`, a tag without a version, or a major version only), or a digest; images with `imagePullPolicy: Never` (preloaded on the node) are not judged.',
    rationale:
      'A DaemonSet creates pods over weeks, as nodes join, pods are evicted or fail: with `latest` (or no tag, which means latest), a branch or channel tag (`main`, `master`, `stable`, `canary`, `nightly`, `edge`, `dev`, `-SNAPSHOT`) or a major version only (`v1`), each node runs whatever the tag pointed to when it pulled, the fleet drifts apart, a template rollback does not bring the old binary back, and with `latest` or no tag `imagePullPolicy` defaults to Always, so any restart can change the agent.',
    howToFix: 'Pin a version tag (`fluent/fluent-bit:3.0.7`) or a digest (`…@sha256:…`).',
    example: 'containers:\n  - name: agent\n    image: example/agent:latest',
  },
  check(ds) {
    const out: RuleFinding[] = [];
    for (const ref of templateContainers(ds, { init: true })) {
      const image = ref.container.image;
      // imagePullPolicy Never: the kubelet only uses the image preloaded on the node (ErrImageNeverPull otherwise), so the tag cannot drift.
      if (!image || ref.container.imagePullPolicy === 'Never') continue;
      const { repository, tag, digest } = parseImage(image);
      const floating = digest ? undefined : floatingTag(tag);
      if (!floating) continue;
      out.push({
        message: `${containerLabel(ref)} uses ${image} (${floating}): nodes run whatever the tag meant when they pulled, so versions drift across the fleet and a rollback does not restore the old binary`,
        path: `${ref.path}.image`,
        fix: `pin a version or a digest:\nimage: ${repository}:<version>`,
      });
    }
    return out;
  },
};
