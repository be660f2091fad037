import { blanketToleration } from '../../../../src/lint/rules/blanket-toleration.js';
import { node } from '../../../builders.js';
import { cluster, goodDaemonSet, ruleTester, secretsStoreProvider } from '../rule-tester.js';

const tolerating = (...t: { key?: string; operator?: string; value?: string; effect?: string }[]) =>
  goodDaemonSet().tolerate(...t);

ruleTester(blanketToleration, {
  valid: [
    { name: 'no tolerations', ds: goodDaemonSet().build() },
    {
      name: "keyless Exists limited to NoSchedule (the guide's fluent-bit)",
      ds: tolerating({ operator: 'Exists', effect: 'NoSchedule' }).build(),
    },
    {
      name: 'keyless Exists limited to PreferNoSchedule',
      ds: tolerating({ operator: 'Exists', effect: 'PreferNoSchedule' }).build(),
    },
    { name: 'a keyed Exists toleration', ds: tolerating({ key: 'dedicated', operator: 'Exists' }).build() },
  ],
  invalid: [
    {
      name: 'keyless Exists without effect',
      ds: tolerating({ operator: 'Exists' }).build(),
      findings: [
        {
          severity: 'warning',
          path: 'spec.template.spec.tolerations[0]',
          message: /\{operator: Exists\} tolerates every taint, NoExecute included/,
          fix: /effect: NoSchedule/,
        },
      ],
    },
    {
      // Section 5 of issue 14: {Exists, NoExecute} covers NoExecute taints only, not every taint.
      name: 'keyless Exists for NoExecute: every NoExecute taint, not every taint',
      ds: tolerating({ key: 'a', operator: 'Exists' }, { operator: 'Exists', effect: 'NoExecute' }).build(),
      findings: [
        {
          severity: 'warning',
          path: 'spec.template.spec.tolerations[1]',
          message:
            /\{operator: Exists, effect: NoExecute\} tolerates every NoExecute taint \(NoSchedule taints still apply\): the pods stay on nodes being evacuated/,
          fix: /^(?![\s\S]*NoSchedule)[\s\S]*out-of-service/,
        },
      ],
    },
    {
      name: 'keyless Exists for NoExecute with nodes: the fix names only their NoExecute taints',
      ds: tolerating({ operator: 'Exists', effect: 'NoExecute' }).build(),
      input: (ds) =>
        cluster({
          daemonSets: [ds],
          nodes: [
            node('gpu-1').taint('nvidia.com/gpu', undefined, 'NoSchedule').build(),
            node('edge-1').taint('dedicated', 'edge', 'NoExecute').build(),
          ],
        }),
      findings: [
        {
          severity: 'warning',
          path: 'spec.template.spec.tolerations[0]',
          fix: /- key: dedicated\n\s+operator: Equal\n\s+value: edge\n\s+effect: NoExecute$/,
        },
      ],
    },
    {
      name: 'a node monitor (node-exporter) tolerates every taint on purpose: info',
      ds: tolerating({ operator: 'Exists' })
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.image = 'quay.io/prometheus/node-exporter:v1.8.2';
        })
        .build(),
      findings: [{ severity: 'info', path: 'spec.template.spec.tolerations[0]', message: /as a monitoring agent/ }],
    },
    {
      name: 'a problem detector (hostPath /dev/kmsg) keeps {Exists, NoExecute}: info',
      ds: tolerating({ operator: 'Exists', effect: 'NoExecute' })
        .with((d) => {
          d.spec!.template!.spec!.volumes = [{ name: 'kmsg', hostPath: { path: '/dev/kmsg' } }];
        })
        .build(),
      findings: [
        {
          severity: 'info',
          path: 'spec.template.spec.tolerations[0]',
          message: /every NoExecute taint .*as a monitoring agent \(hostPath \/dev\/kmsg/,
        },
      ],
    },
    {
      name: 'with nodes: the fix lists their custom taints, not the lifecycle ones',
      ds: tolerating({ operator: 'Exists' }).build(),
      input: (ds) =>
        cluster({
          daemonSets: [ds],
          nodes: [
            node('gpu-1').taint('nvidia.com/gpu', undefined, 'NoSchedule').build(),
            node('edge-1').taint('dedicated', 'edge', 'NoExecute').cordon().build(),
          ],
        }),
      findings: [
        {
          severity: 'warning',
          path: 'spec.template.spec.tolerations[0]',
          fix: /- key: dedicated\n\s+operator: Equal\n\s+value: edge\n\s+effect: NoExecute\n\s+- key: nvidia\.com\/gpu\n\s+operator: Exists\n\s+effect: NoSchedule$/,
        },
      ],
    },
    {
      name: 'a CNI agent: info',
      ds: tolerating({ operator: 'Exists' })
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.image = 'quay.io/cilium/cilium:v1.15.6';
        })
        .build(),
      findings: [
        { severity: 'info', path: 'spec.template.spec.tolerations[0]', message: /as a network \(CNI\) agent/ },
      ],
    },
    {
      // Issue 39: with a keyless NoSchedule toleration beside it, "NoSchedule taints still apply" is untrue.
      name: '{Exists, NoExecute} next to {Exists, NoSchedule}: every taint, and the message says so',
      ds: tolerating({ operator: 'Exists', effect: 'NoExecute' }, { operator: 'Exists', effect: 'NoSchedule' }).build(),
      findings: [
        {
          severity: 'warning',
          path: 'spec.template.spec.tolerations[0]',
          message:
            /^toleration \{operator: Exists, effect: NoExecute\} tolerates every NoExecute taint, and with tolerations\[1\] \{operator: Exists, effect: NoSchedule\} every NoSchedule taint too: the pods run on every dedicated node/,
        },
      ],
    },
    {
      name: 'a log collector ships the logs of pods being evicted: info',
      ds: tolerating({ operator: 'Exists', effect: 'NoExecute' })
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.image = 'fluent/fluent-bit:3.0.7';
        })
        .build(),
      findings: [{ severity: 'info', path: 'spec.template.spec.tolerations[0]', message: /as a log collector/ }],
    },
    {
      // The secrets-store CSI node plugin it serves tolerates every taint, and dials the provider on its own node.
      name: 'a Secrets Store CSI provider tolerates every taint, as the driver it serves does: info',
      ds: secretsStoreProvider('mcr.microsoft.com/oss/v2/azure/secrets-store/provider-azure:v1.8.2')
        .tolerate({ operator: 'Exists' })
        .build(),
      findings: [
        {
          severity: 'info',
          path: 'spec.template.spec.tolerations[0]',
          message: /as a Secrets Store CSI provider \(hostPath \/var\/run\/secrets-store-csi-providers /,
        },
      ],
    },
    ...(
      [
        // proc(5): a procfs shows the processes of the PID namespace it was mounted for, so the host's /proc is hostPID's view.
        ['hostPID', true, undefined],
        ['the host /proc instead of hostPID (the Inspektor Gadget shape)', false, '/proc'],
      ] as const
    ).map(([how, hostPID, proc]) => ({
      name: `a tracing agent (kernel tracing filesystem with ${how}) tolerates every taint: info`,
      ds: tolerating({ operator: 'Exists', effect: 'NoSchedule' }, { operator: 'Exists', effect: 'NoExecute' })
        .with((d) => {
          const spec = d.spec!.template!.spec!;
          spec.hostPID = hostPID;
          spec.volumes = [
            { name: 'debugfs', hostPath: { path: '/sys/kernel/debug' } },
            ...(proc ? [{ name: 'proc', hostPath: { path: proc } }] : []),
          ];
        })
        .build(),
      findings: [
        {
          severity: 'info' as const,
          path: 'spec.template.spec.tolerations[1]',
          message: /as a security agent \(host(PID| \/proc) with hostPath \/sys\/kernel\/debug/,
        },
      ],
    })),
    {
      name: 'the host /proc without a kernel tracing filesystem is no tracing agent: warning',
      ds: tolerating({ operator: 'Exists', effect: 'NoSchedule' }, { operator: 'Exists', effect: 'NoExecute' })
        .with((d) => {
          d.spec!.template!.spec!.volumes = [{ name: 'proc', hostPath: { path: '/proc' } }];
        })
        .build(),
      findings: [{ severity: 'warning', path: 'spec.template.spec.tolerations[1]' }],
    },
  ],
});
