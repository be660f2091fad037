// An image pull failure by what the registry answered. Registries answer with the error codes of
// the OCI distribution specification (UNAUTHORIZED, DENIED, MANIFEST_UNKNOWN, TOOMANYREQUESTS), which
// the kubelet passes through (kubernetes v1.35.4 pkg/kubelet/images/image_manager.go
// #EnsureImageExists). The kubelet pulls with the pod's spec.imagePullSecrets
// (pkg/kubelet/kuberuntime/kuberuntime_image.go#PullImage), which a pod that sets none gets from its
// ServiceAccount at admission (plugin/pkg/admission/serviceaccount/admission.go; its admission_test.go
// TestAddImagePullSecrets): a bound pod without any had none from either (projectcalico/calico#6750,
// a DaemonSet the operator rendered without the pull secret its siblings carry).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pullFailure } from '../../src/k8s/image-pull.js';
import { diagnoseAllNodes } from '../../src/analyze/placement/index.js';
import type { Pod } from '../../src/model/k8s-types.js';
import { NOW, daemonSet, event, indexOf, node, pod } from '../builders.js';

const cases: {
  name: string;
  message: string;
  secrets?: string[];
  want: ReturnType<typeof pullFailure>;
  fix: RegExp;
}[] = [
  {
    name: 'containerd, no pull secret: unauthorized, add one',
    message:
      'Failed to pull image "registry.example.com/agent:1.0": rpc error: code = Unknown desc = failed to pull and unpack image "registry.example.com/agent:1.0": failed to resolve reference "registry.example.com/agent:1.0": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed',
    want: 'unauthorized',
    fix: /registry registry\.example\.com refuses an anonymous pull \(it answers the same for a repository that does not exist: check the image name too\), and the pod carries no imagePullSecrets.*list it in spec\.template\.spec\.imagePullSecrets/,
  },
  {
    name: 'a pull secret the registry refuses: check that Secret',
    message:
      'Failed to pull image "registry.example.com/agent:1.0": rpc error: code = Unknown desc = failed to authorize: failed to fetch oauth token: unexpected status: 401 Unauthorized',
    secrets: ['regcred'],
    want: 'unauthorized',
    fix: /refuses the pull with the pod's imagePullSecrets \(regcred\): check that each Secret exists in namespace agents/,
  },
  {
    name: 'Docker Hub rate limit',
    message:
      'Failed to pull image "fluent/fluent-bit:2.1": rpc error: code = Unknown desc = failed to pull and unpack image "docker.io/fluent/fluent-bit:2.1": failed to copy: httpReadSeeker: failed open: unexpected status code https://registry-1.docker.io/v2/fluent/fluent-bit/manifests/sha256:0: 429 Too Many Requests - Server message: toomanyrequests: You have reached your pull rate limit.',
    want: 'rate-limited',
    fix: /registry docker\.io limits the rate of pulls \(toomanyrequests\)/,
  },
  {
    name: 'a tag that does not exist: fix the image',
    message:
      'Failed to pull image "registry.example.com/agent:9.9": rpc error: code = NotFound desc = failed to pull and unpack image "registry.example.com/agent:9.9": failed to resolve reference "registry.example.com/agent:9.9": registry.example.com/agent:9.9: not found',
    want: 'not-found',
    fix: /registry registry\.example\.com has no "registry\.example\.com\/agent:1\.0": fix the image or tag in the template/,
  },
  {
    name: 'a network error says nothing of the registry: the generic fix',
    message: 'Failed to pull image "registry.example.com/agent:1.0": dial tcp 10.0.0.5:443: i/o timeout',
    want: undefined,
    fix: /check that "registry\.example\.com\/agent:1\.0" exists and that the node can pull it/,
  },
];

describe('image pull failures, by what the registry answered', () => {
  for (const c of cases)
    test(c.name, () => {
      assert.equal(pullFailure([c.message]), c.want);
      const ds = daemonSet('agent', 'agents').build();
      ds.spec!.template!.spec!.containers![0]!.image = 'registry.example.com/agent:1.0';
      const p: Pod = pod('agent-n1', 'agents')
        .ofDaemonSet(ds, 'n1')
        .on('n1')
        .waiting('ImagePullBackOff', 'Back-off pulling image "registry.example.com/agent:1.0"')
        .build();
      p.spec!.containers![0]!.image = c.name.startsWith('Docker Hub')
        ? 'fluent/fluent-bit:2.1'
        : 'registry.example.com/agent:1.0';
      if (c.secrets)
        (p.spec as { imagePullSecrets?: { name: string }[] }).imagePullSecrets = c.secrets.map((name) => ({ name }));
      const index = indexOf({
        nodes: [node('n1').build()],
        daemonSets: [ds],
        pods: [p],
        events: [event('Pod', p, 'Failed', c.message)],
      });
      const reason = diagnoseAllNodes(index, ds, NOW, 600)[0]!.reasons.find((r) => r.code === 'ImagePullBackOff');
      assert.ok(reason);
      assert.match(reason.fix, c.fix);
    });
});
