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
import { causesOf } from '../../src/analyze/causes/index.js';
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
      if (c.secrets) p.spec!.imagePullSecrets = c.secrets.map((name) => ({ name }));
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

describe('PullSecretNotCarried: the pull secret another DaemonSet of the namespace uses for that registry', () => {
  const REFUSED =
    'Failed to pull image "registry.example.com/csi:1.0": rpc error: code = Unknown desc = failed to resolve reference "registry.example.com/csi:1.0": unexpected status: 401 Unauthorized';
  const sibling = (registry: string, namespace = 'calico-system') => {
    const d = daemonSet('calico-node', namespace).build();
    d.spec!.template!.spec!.containers![0]!.image = `${registry}/node:1.0`;
    d.spec!.template!.spec!.imagePullSecrets = [{ name: 'regcred' }];
    return d;
  };
  const cases: { name: string; others: ReturnType<typeof sibling>[]; podSecret?: boolean; linked: boolean }[] = [
    {
      name: 'PullSecretNotCarried: a sibling pulls from the registry with a secret: linked',
      others: [sibling('registry.example.com')],
      linked: true,
    },
    { name: 'no sibling: nothing linked', others: [], linked: false },
    { name: 'a sibling of another registry: nothing linked', others: [sibling('quay.io')], linked: false },
    {
      name: 'a sibling of another namespace: nothing linked',
      others: [sibling('registry.example.com', 'other')],
      linked: false,
    },
    {
      name: 'the pods carry a secret already: nothing linked',
      others: [sibling('registry.example.com')],
      podSecret: true,
      linked: false,
    },
  ];
  for (const c of cases)
    test(c.name, () => {
      const ds = daemonSet('csi-node-driver', 'calico-system').build();
      ds.spec!.template!.spec!.containers![0]!.image = 'registry.example.com/csi:1.0';
      const pods = ['n1', 'n2'].map((n) => {
        const p = pod(`csi-node-driver-${n}`, 'calico-system')
          .ofDaemonSet(ds, n)
          .on(n)
          .waiting('ImagePullBackOff', 'Back-off pulling image "registry.example.com/csi:1.0"')
          .build();
        p.spec!.containers![0]!.image = 'registry.example.com/csi:1.0';
        if (c.podSecret) p.spec!.imagePullSecrets = [{ name: 'other' }];
        return p;
      });
      const index = indexOf({
        nodes: [node('n1').build(), node('n2').build()],
        daemonSets: [ds, ...c.others],
        pods,
        events: pods.map((p) => event('Pod', p, 'Failed', REFUSED)),
      });
      const causes = causesOf(index, [ds], { now: NOW });
      const cause = causes.find((x) => x.code === 'PullSecretNotCarried');
      assert.equal(Boolean(cause), c.linked, JSON.stringify(causes.map((x) => x.code)));
      if (!cause) return;
      assert.deepEqual(cause.nodes, ['n1', 'n2']);
      assert.match(
        cause.summary,
        /registry\.example\.com refuses csi-node-driver's anonymous pulls → its pods carry no imagePullSecrets → calico-node pulls from registry\.example\.com with regcred/,
      );
      assert.match(
        cause.fix,
        /kubectl patch daemonset csi-node-driver -n calico-system --type merge -p '\{"spec":\{"template":\{"spec":\{"imagePullSecrets":\[\{"name":"regcred"\}\]\}\}\}\}'/,
      );
    });
});
