/**
 * Every lint rule, in one explicit list sorted by id (kept sorted by a test): adding a rule means
 * adding its file, its test, its README entry and a line here.
 */
import type { LintRule } from './types.js';
import { blanketToleration } from './rules/blanket-toleration.js';
import { customTaintNotTolerated } from './rules/custom-taint-not-tolerated.js';
import { deprecatedApiVersion } from './rules/deprecated-api-version.js';
import { hostNetworkDnsPolicy } from './rules/host-network-dns-policy.js';
import { imageTagMutable } from './rules/image-tag-mutable.js';
import { maxUnavailableTooLow } from './rules/max-unavailable-too-low.js';
import { memoryLimitMissing } from './rules/memory-limit-missing.js';
import { missingOsSelector } from './rules/missing-os-selector.js';
import { pdbMissing } from './rules/pdb-missing.js';
import { priorityClassMissing } from './rules/priority-class-missing.js';
import { privilegedContainer } from './rules/privileged-container.js';
import { readOnlyRootFilesystem } from './rules/read-only-root-filesystem.js';
import { readinessProbeMissing } from './rules/readiness-probe-missing.js';
import { resourcesRequestsMissing } from './rules/resources-requests-missing.js';
import { runAsNonRoot } from './rules/run-as-non-root.js';
import { selectorTemplateMismatch } from './rules/selector-template-mismatch.js';
import { surgeWithHostPort } from './rules/surge-with-host-port.js';
import { updateStrategyOnDelete } from './rules/update-strategy-on-delete.js';

/** Every rule `lint` runs, sorted by id. */
export const RULES: readonly LintRule[] = [
  blanketToleration,
  customTaintNotTolerated,
  deprecatedApiVersion,
  hostNetworkDnsPolicy,
  imageTagMutable,
  maxUnavailableTooLow,
  memoryLimitMissing,
  missingOsSelector,
  pdbMissing,
  priorityClassMissing,
  privilegedContainer,
  readOnlyRootFilesystem,
  readinessProbeMissing,
  resourcesRequestsMissing,
  runAsNonRoot,
  selectorTemplateMismatch,
  surgeWithHostPort,
  updateStrategyOnDelete,
];
