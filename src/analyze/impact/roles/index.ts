/**
 * The role sections of the impact analysis, one file per role (as src/lint/rules/ has one file
 * per rule): what deleting a DaemonSet with that role breaks on its nodes. Roles come from
 * `detectRoles` (model/roles.ts); every role has exactly one section.
 */
import type { Role } from '../../../model/roles.js';
import type { Analysis } from '../analysis.js';
import { deviceRole } from './device.js';
import { dnsRole } from './dns.js';
import { loggingRole } from './logging.js';
import { monitoringRole } from './monitoring.js';
import { networkRole } from './network.js';
import { securityRole } from './security.js';
import { serviceProxyRole } from './service-proxy.js';
import { storageRole } from './storage.js';

export const ROLE_SECTIONS: Record<Role, (a: Analysis) => void> = {
  network: networkRole,
  'service-proxy': serviceProxyRole,
  storage: storageRole,
  device: deviceRole,
  dns: dnsRole,
  logging: loggingRole,
  monitoring: monitoringRole,
  security: securityRole,
};
