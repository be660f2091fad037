import { readOnlyRootFilesystem } from '../../../../src/lint/rules/read-only-root-filesystem.js';
import { goodDaemonSet, ruleTester } from '../rule-tester.js';

const C0 = 'spec.template.spec.containers[0]';

ruleTester(readOnlyRootFilesystem, {
  valid: [{ name: 'read-only root filesystem', ds: goodDaemonSet().build() }],
  invalid: [
    {
      name: 'not set',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.securityContext = { runAsNonRoot: true };
        })
        .build(),
      findings: [{ severity: 'warning', path: `${C0}.securityContext.readOnlyRootFilesystem`, message: /writable root filesystem/, fix: /readOnlyRootFilesystem: true/ }],
    },
    {
      name: 'explicitly false, and an init container without it',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.securityContext = { readOnlyRootFilesystem: false };
          d.spec!.template!.spec!.initContainers = [{ name: 'setup', image: 'busybox:1.36' }];
        })
        .build(),
      findings: [
        { severity: 'warning', path: `${C0}.securityContext.readOnlyRootFilesystem` },
        { severity: 'warning', path: 'spec.template.spec.initContainers[0].securityContext.readOnlyRootFilesystem', message: /init container setup/ },
      ],
    },
    {
      name: 'a log collector: its buffers belong on a hostPath or emptyDir',
      ds: goodDaemonSet('fluent-bit', 'logging')
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.image = 'fluent/fluent-bit:3.0';
          d.spec!.template!.spec!.containers![0]!.securityContext = {};
        })
        .build(),
      findings: [{ severity: 'warning', path: `${C0}.securityContext.readOnlyRootFilesystem`, message: /buffer and position files/ }],
    },
    {
      name: 'kube-proxy: info',
      ds: goodDaemonSet('kube-proxy', 'kube-system')
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.securityContext = { privileged: true };
        })
        .build(),
      findings: [{ severity: 'info', path: `${C0}.securityContext.readOnlyRootFilesystem`, message: /service proxy/ }],
    },
  ],
});
