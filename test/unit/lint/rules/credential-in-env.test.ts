import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EnvVar } from '../../../../src/model/k8s-types.js';
import { credentialInEnv } from '../../../../src/lint/rules/credential-in-env.js';
import { goodDaemonSet, ruleTester, runRule } from '../rule-tester.js';

const withEnv = (...env: EnvVar[]) =>
  goodDaemonSet().with((d) => {
    d.spec!.template!.spec!.containers![0]!.env = env;
  });

ruleTester(credentialInEnv, {
  valid: [
    {
      name: "valueFrom a Secret (datadog's DD_API_KEY)",
      ds: withEnv({ name: 'DD_API_KEY', valueFrom: { secretKeyRef: { name: 'datadog', key: 'api-key' } } }).build(),
    },
    {
      name: 'a path to the credential file (DD_AUTH_TOKEN_FILE_PATH)',
      ds: withEnv({ name: 'DD_AUTH_TOKEN_FILE_PATH', value: '/etc/datadog-agent/auth/token' }).build(),
    },
    {
      name: 'the name of a Secret (METALLB_ML_SECRET_NAME)',
      ds: withEnv({ name: 'METALLB_ML_SECRET_NAME', value: 'memberlist' }).build(),
    },
    {
      name: 'a path in a *_SECRET_KEY_PATH',
      ds: withEnv({ name: 'METALLB_ML_SECRET_KEY_PATH', value: '/etc/ml_secret_key' }).build(),
    },
    { name: 'a $(VAR) reference', ds: withEnv({ name: 'ES_PASSWORD', value: '$(ELASTIC_PASSWORD)' }).build() },
    { name: 'a flag, not a credential', ds: withEnv({ name: 'TOKEN_AUTH', value: 'true' }).build() },
    { name: 'an ordinary variable', ds: withEnv({ name: 'FLUENT_ELASTICSEARCH_USER', value: 'elastic' }).build() },
  ],
  invalid: [
    {
      name: "a literal password (fluentd's FLUENT_ELASTICSEARCH_PASSWORD: changeme)",
      ds: withEnv(
        { name: 'FLUENT_ELASTICSEARCH_USER', value: 'elastic' },
        { name: 'FLUENT_ELASTICSEARCH_PASSWORD', value: 'changeme' },
      ).build(),
      findings: [
        {
          severity: 'error',
          path: 'spec.template.spec.containers[0].env[1].value',
          message: /container agent sets FLUENT_ELASTICSEARCH_PASSWORD to a literal value/,
          fix: /secretKeyRef:\n\s+name: agent-credentials\n\s+key: fluent-elasticsearch-password/,
        },
      ],
    },
    {
      name: 'a token and an API key in an init container',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.template!.spec!.initContainers = [
            {
              name: 'register',
              image: 'example/register:1.0',
              env: [
                { name: 'AUTH_TOKEN', value: 'abc123' },
                { name: 'apiKey', value: 'k-123' },
              ],
            },
          ];
        })
        .build(),
      findings: [
        {
          severity: 'error',
          path: 'spec.template.spec.initContainers[0].env[0].value',
          message: /^init container register sets AUTH_TOKEN/,
        },
        { severity: 'error', path: 'spec.template.spec.initContainers[0].env[1].value', message: /sets apiKey/ },
      ],
    },
  ],
});

test('credential-in-env never repeats the credential', () => {
  const report = runRule(credentialInEnv, {
    name: 'secret',
    ds: withEnv({ name: 'DB_PASSWORD', value: 'hunter2-s3cr3t' }).build(),
  });
  assert.equal(report.findings.length, 1);
  assert.doesNotMatch(JSON.stringify(report), /hunter2-s3cr3t/);
});
