/**
 * `image-tag-mutable`: images are pinned to a version tag or a digest.
 * Motivation: DaemonSet pods are created over time (new nodes, evictions, failed pods), each
 * pulling what the tag means then; Popeye 100/101, kube-linter latest-tag, Polaris
 * tagNotSpecified.
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

/** The `image-tag-mutable` rule, as the registry lists it. */
export const imageTagMutable: LintRule = {
  meta: {
    id: 'image-tag-mutable',
    severity: 'warning',
    description: 'Every image has a version tag other than `latest`, or a digest.',
    rationale: 'A DaemonSet creates pods over weeks, as nodes join, pods are evicted or fail: with `latest` (or no tag, which means latest) each node runs whatever the tag pointed to when it pulled, the fleet drifts apart, a template rollback does not bring the old binary back, and `imagePullPolicy` defaults to Always, so any restart can change the agent.',
    howToFix: 'Pin a version tag (`fluent/fluent-bit:3.0.7`) or a digest (`…@sha256:…`).',
    example: 'containers:\n  - name: agent\n    image: example/agent:latest',
  },
  check(ds) {
    const out: RuleFinding[] = [];
    for (const ref of templateContainers(ds, { init: true })) {
      const image = ref.container.image;
      if (!image) continue;
      const { repository, tag, digest } = parseImage(image);
      if (digest || (tag !== undefined && tag !== 'latest')) continue;
      out.push({
        message: `${containerLabel(ref)} uses ${image}${tag === undefined ? ' (no tag: latest)' : ''}: nodes run whatever the tag meant when they pulled, so versions drift across the fleet and a rollback does not restore the old binary`,
        path: `${ref.path}.image`,
        fix: `pin a version or a digest:\nimage: ${repository}:<version>`,
      });
    }
    return out;
  },
};
