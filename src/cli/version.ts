/**
 * What `--version` and `version` print: the package version, the commit it was built from and
 * the Node.js that runs it. The commit comes from `dist/build-info.json`, written by
 * `npm run build` (and so by `npm pack`) with `scripts/build-info.mjs`, or, in the single
 * executable, from the bundler's `DS_DOCTOR_COMMIT` constant.
 */
import { readFileSync } from 'node:fs';
import { API_VERSION } from '../model/results.js';

/** The package version; a unit test holds it equal to package.json's. */
export const VERSION = '0.1.0';

// Replaced by a string literal when the single executable is bundled (scripts/package.mjs).
declare const DS_DOCTOR_COMMIT: string | undefined;

export interface VersionInfo {
  apiVersion: typeof API_VERSION;
  kind: 'Version';
  version: string;
  /** Short git commit id of the build, or `unknown` (a build without git). */
  commit: string;
  /** The Node.js version running ds-doctor (the one inside the single executable). */
  nodeVersion: string;
  /** `os/arch` as Go and kubectl spell them, e.g. linux/amd64. */
  platform: string;
}

const GO_ARCH: Record<string, string> = { x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm' };
const GO_OS: Record<string, string> = { win32: 'windows' };

/** The commit recorded at build time, or `unknown`. */
export function buildCommit(): string {
  if (typeof DS_DOCTOR_COMMIT === 'string') return DS_DOCTOR_COMMIT;
  try {
    const info = JSON.parse(readFileSync(new URL('../../build-info.json', import.meta.url), 'utf8')) as {
      commit?: unknown;
    };
    return typeof info.commit === 'string' && /^[0-9a-f]{4,40}$/.test(info.commit) ? info.commit : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The version document of this process. */
export function versionInfo(): VersionInfo {
  return {
    apiVersion: API_VERSION,
    kind: 'Version',
    version: VERSION,
    commit: buildCommit(),
    nodeVersion: process.version,
    platform: `${GO_OS[process.platform] ?? process.platform}/${GO_ARCH[process.arch] ?? process.arch}`,
  };
}

/** The one line `--version` prints. */
export function versionLine(info: VersionInfo): string {
  return `ds-doctor ${info.version} (commit ${info.commit}, Node.js ${info.nodeVersion}, ${info.platform})`;
}
