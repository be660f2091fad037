import { resourcesRequestsMissing } from '../../../../src/lint/rules/resources-requests-missing.js';
import { goodDaemonSet, ruleTester } from '../rule-tester.js';

const C0 = 'spec.template.spec.containers[0]';

ruleTester(resourcesRequestsMissing, {
  valid: [
    { name: 'cpu and memory requested', ds: goodDaemonSet().build() },
    {
      name: 'limits only: the API defaults requests to limits',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.resources = { limits: { cpu: '100m', memory: '64Mi' } };
        })
        .build(),
    },
    {
      name: 'init containers are not checked (they run before the pod starts)',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.template!.spec!.initContainers = [{ name: 'setup', image: 'busybox:1.36' }];
        })
        .build(),
    },
    {
      name: 'a pause container is not judged (a driver installer)',
      ds: goodDaemonSet().container({ name: 'pause', image: 'gke.gcr.io/pause:3.8' }).build(),
    },
  ],
  invalid: [
    {
      name: 'no resources at all: BestEffort',
      ds: goodDaemonSet()
        .with((d) => {
          delete d.spec!.template!.spec!.containers![0]!.resources;
        })
        .build(),
      findings: [
        {
          severity: 'warning',
          path: `${C0}.resources.requests`,
          message: /requests no cpu and no memory.*BestEffort/,
          fix: /cpu: 100m\n\s+memory: 128Mi/,
        },
      ],
    },
    {
      name: 'memory request missing (the Calico manifest shape)',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.resources = { requests: { cpu: '250m' } };
        })
        .build(),
      findings: [
        {
          severity: 'warning',
          path: `${C0}.resources.requests.memory`,
          // The cpu request is reserved: the message names what is not, not "nothing".
          message: /requests no memory: the scheduler reserves no memory for it, so /,
          fix: /memory: 128Mi/,
        },
      ],
    },
    {
      name: 'a second container and a restartable init container (sidecar) are checked too',
      ds: goodDaemonSet()
        .container({ name: 'exporter', image: 'example/exporter:2.0.0', resources: { requests: { memory: '16Mi' } } })
        .with((d) => {
          d.spec!.template!.spec!.initContainers = [
            { name: 'shipper', image: 'example/shipper:1.0.0', restartPolicy: 'Always' },
          ];
        })
        .build(),
      findings: [
        {
          severity: 'warning',
          path: 'spec.template.spec.containers[1].resources.requests.cpu',
          message: /container exporter requests no cpu: the scheduler reserves no cpu for it/,
        },
        {
          severity: 'warning',
          path: 'spec.template.spec.initContainers[0].resources.requests',
          message: /container shipper requests no cpu and no memory/,
        },
      ],
    },
    {
      // v1 qos.GetPodQOS counts init containers: one with a request makes the pod Burstable.
      name: 'no resources, but an init container requests cpu: not BestEffort',
      ds: goodDaemonSet()
        .with((d) => {
          delete d.spec!.template!.spec!.containers![0]!.resources;
          d.spec!.template!.spec!.initContainers = [
            { name: 'setup', image: 'busybox:1.36', resources: { requests: { cpu: '150m' } } },
          ];
        })
        .build(),
      findings: [
        {
          severity: 'warning',
          path: 'spec.template.spec.containers[0].resources.requests',
          message:
            /requests no cpu and no memory: the scheduler reserves nothing for it, so each of the DaemonSet's nodes is oversubscribed by one copy$/,
        },
      ],
    },
  ],
});
