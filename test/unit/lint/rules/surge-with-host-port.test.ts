import { surgeWithHostPort } from '../../../../src/lint/rules/surge-with-host-port.js';
import { goodDaemonSet, ruleTester } from '../rule-tester.js';

const surge = (value: number | string) =>
  goodDaemonSet().with((d) => {
    d.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: value, maxUnavailable: 0 } };
  });
const PATH = 'spec.updateStrategy.rollingUpdate.maxSurge';

ruleTester(surgeWithHostPort, {
  valid: [
    {
      name: 'surge without host ports',
      ds: surge(1)
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.ports = [{ containerPort: 8080 }];
        })
        .build(),
    },
    {
      name: 'host port without surge',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.ports = [{ containerPort: 8080, hostPort: 8080 }];
        })
        .build(),
    },
    {
      name: 'maxSurge 0%',
      ds: surge('0%')
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.ports = [{ containerPort: 80, hostPort: 80 }];
        })
        .build(),
    },
    {
      name: 'OnDelete ignores maxSurge',
      ds: surge(1)
        .with((d) => {
          d.spec!.updateStrategy!.type = 'OnDelete';
          d.spec!.template!.spec!.hostNetwork = true;
          d.spec!.template!.spec!.containers![0]!.ports = [{ containerPort: 9100 }];
        })
        .build(),
    },
  ],
  invalid: [
    {
      name: 'maxSurge with hostPort',
      ds: surge(1)
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.ports = [{ containerPort: 8080, hostPort: 80 }];
        })
        .build(),
      findings: [
        {
          severity: 'error',
          path: PATH,
          message: /maxSurge 1 with host port\(s\) 0\.0\.0\.0:80\/TCP: .*never completes/,
          fix: /maxSurge: 0\n\s+maxUnavailable: 1/,
        },
      ],
    },
    {
      name: 'a percentage surge with hostNetwork containerPorts (Pod defaulting makes them host ports)',
      ds: surge('25%')
        .with((d) => {
          d.spec!.template!.spec!.hostNetwork = true;
          d.spec!.template!.spec!.containers![0]!.ports = [{ containerPort: 9100 }];
        })
        .build(),
      findings: [
        {
          severity: 'error',
          path: PATH,
          message: /maxSurge 25% with host port\(s\) 0\.0\.0\.0:9100\/TCP \(hostNetwork/,
        },
      ],
    },
    {
      name: 'a restartable init container (sidecar) holding a host port',
      ds: surge(1)
        .with((d) => {
          d.spec!.template!.spec!.initContainers = [
            {
              name: 'proxy',
              image: 'envoy:1.30.0',
              restartPolicy: 'Always',
              ports: [{ containerPort: 15000, hostPort: 15000 }],
            },
          ];
        })
        .build(),
      findings: [{ severity: 'error', path: PATH, message: /15000/ }],
    },
  ],
});
