/**
 * `credential-in-env`: no password, token, secret or API key is written as a literal env value.
 * Motivation: issue 14 §3; the Kubernetes "Good practices for Secrets" (a literal value is
 * stored in the DaemonSet object, readable by anyone who can get DaemonSets, and in every copy
 * of the manifest); kube-linter env-var-secret, Polaris.
 */
import type { EnvVar } from '../../model/k8s-types.js';
import type { LintRule, RuleFinding } from '../types.js';
import { containerLabel, templateContainers, yamlBlock } from '../template.js';

/** Env names that hold a credential. */
const CREDENTIAL_NAME = /PASSWORD|PASSWD|PASSPHRASE|TOKEN|SECRET|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIAL/i;

/** Names that hold a reference to a credential (its file, Secret name, lifetime), not the credential. */
const REFERENCE_NAME =
  /(_|^)(FILE|PATH|DIR|NAME|REF|TTL|TIMEOUT|DURATION|EXPIRY|EXPIRATION|ENABLED|ENABLE|TYPE|MODE|ID|URL|HEADER)$|_(FILE|PATH)_/i;

/** Values that are not credentials: a path, a `$(VAR)` reference, a boolean or a number. */
function notACredential(value: string): boolean {
  const v = value.trim();
  return (
    v === '' ||
    v.startsWith('/') ||
    /^\$\([A-Za-z_][A-Za-z0-9_]*\)$/.test(v) ||
    /^(true|false|yes|no)$/i.test(v) ||
    /^\d+$/.test(v)
  );
}

/** True when `env` carries a literal credential (`value:`, not `valueFrom`). */
export function isLiteralCredential(env: EnvVar): boolean {
  return (
    typeof env.value === 'string' &&
    env.valueFrom === undefined &&
    CREDENTIAL_NAME.test(env.name) &&
    !REFERENCE_NAME.test(env.name) &&
    !notACredential(env.value)
  );
}

/** The `credential-in-env` rule, as the registry lists it. */
export const credentialInEnv: LintRule = {
  meta: {
    id: 'credential-in-env',
    severity: 'error',
    description:
      'No env var named like a credential (`*PASSWORD*`, `*TOKEN*`, `*SECRET*`, `*API_KEY*`, …) has a literal `value:`; `valueFrom` and file paths are fine.',
    rationale:
      'A literal env value is stored in the DaemonSet object and its ControllerRevisions, readable by anyone who can get DaemonSets or pods, shown by `kubectl describe`, and copied into every manifest, chart and dump. A placeholder such as `changeme` is worse: deployments keep it. Secrets can be restricted by RBAC, encrypted at rest and rotated without editing the DaemonSet.',
    howToFix:
      'Put the value in a Secret and reference it with `valueFrom.secretKeyRef` (or mount the Secret and point the agent at the file); rotate a credential that was ever committed.',
    example: 'containers:\n  - name: shipper\n    env:\n      - name: ELASTICSEARCH_PASSWORD\n        value: changeme',
  },
  check(ds) {
    const out: RuleFinding[] = [];
    for (const ref of templateContainers(ds, { init: true })) {
      (ref.container.env ?? []).forEach((env, i) => {
        if (!isLiteralCredential(env)) return;
        // The value itself is never repeated: it is a credential.
        out.push({
          message: `${containerLabel(ref)} sets ${env.name} to a literal value: the credential is stored in the DaemonSet, readable by anyone who can read it, and copied into every manifest and dump`,
          path: `${ref.path}.env[${i}].value`,
          fix: `keep it in a Secret and reference it:\n${yamlBlock({ name: env.name, valueFrom: { secretKeyRef: { name: `${ds.metadata?.name ?? 'agent'}-credentials`, key: env.name.toLowerCase().replace(/_/g, '-') } } })}`,
        });
      });
    }
    return out;
  },
};
