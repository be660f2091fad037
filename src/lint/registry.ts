/**
 * Every lint rule, in one explicit list sorted by id (kept sorted by a test): adding a rule means
 * adding its file, its test, its README entry and a line here.
 */
import type { LintRule } from './types.js';
import { apiValidation } from './rules/api-validation.js';
import { blanketToleration } from './rules/blanket-toleration.js';
import { credentialInEnv } from './rules/credential-in-env.js';
import { csiNodeTaintsNotTolerated } from './rules/csi-node-taints-not-tolerated.js';
import { customTaintNotTolerated } from './rules/custom-taint-not-tolerated.js';
import { deprecatedApiVersion } from './rules/deprecated-api-version.js';
import { hostNetworkDnsPolicy } from './rules/host-network-dns-policy.js';
import { imageTagMutable } from './rules/image-tag-mutable.js';
import { livenessProbeMissing } from './rules/liveness-probe-missing.js';
import { maxUnavailableAllUnprobed } from './rules/max-unavailable-all-unprobed.js';
import { maxUnavailableTooLow } from './rules/max-unavailable-too-low.js';
import { memoryLimitMissing } from './rules/memory-limit-missing.js';
import { missingOsSelector } from './rules/missing-os-selector.js';
import { notReadyTolerationMissing } from './rules/not-ready-toleration-missing.js';
import { pdbMissing } from './rules/pdb-missing.js';
import { priorityClassMissing } from './rules/priority-class-missing.js';
import { privilegeEscalationAllowed } from './rules/privilege-escalation-allowed.js';
import { privilegedContainer } from './rules/privileged-container.js';
import { probePortNotDeclared } from './rules/probe-port-not-declared.js';
import { readOnlyRootFilesystem } from './rules/read-only-root-filesystem.js';
import { readinessProbeMissing } from './rules/readiness-probe-missing.js';
import { resourcesRequestsMissing } from './rules/resources-requests-missing.js';
import { runAsNonRoot } from './rules/run-as-non-root.js';
import { selectorMutableLabel } from './rules/selector-mutable-label.js';
import { selectorTemplateMismatch } from './rules/selector-template-mismatch.js';
import { surgeWithHostPort } from './rules/surge-with-host-port.js';
import { updateStrategyOnDelete } from './rules/update-strategy-on-delete.js';

/** Every rule `lint` runs, sorted by id. */
export const RULES: readonly LintRule[] = [
  apiValidation,
  blanketToleration,
  credentialInEnv,
  csiNodeTaintsNotTolerated,
  customTaintNotTolerated,
  deprecatedApiVersion,
  hostNetworkDnsPolicy,
  imageTagMutable,
  livenessProbeMissing,
  maxUnavailableAllUnprobed,
  maxUnavailableTooLow,
  memoryLimitMissing,
  missingOsSelector,
  notReadyTolerationMissing,
  pdbMissing,
  priorityClassMissing,
  privilegeEscalationAllowed,
  privilegedContainer,
  probePortNotDeclared,
  readOnlyRootFilesystem,
  readinessProbeMissing,
  resourcesRequestsMissing,
  runAsNonRoot,
  selectorMutableLabel,
  selectorTemplateMismatch,
  surgeWithHostPort,
  updateStrategyOnDelete,
];
