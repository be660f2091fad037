// Typed entry point to controlplane.mjs for the TypeScript cluster tests.
//
//   import { startControlPlane, ensureBinaries } from '../cluster/harness.js';
//
// tsc does not copy .mjs files into dist/, and dist/test/... sits one level deeper than
// test/..., so a relative import of controlplane.mjs cannot be right for both the source
// and the compiled file. This module finds test/cluster/controlplane.mjs by walking up from
// its own location (works from test/cluster/ and from dist/test/cluster/) and loads it.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as ControlPlaneModule from './controlplane.mjs';

export type { ControlPlane, KubectlOptions, KubectlResult, StartControlPlaneOptions } from './controlplane.mjs';

function locateControlPlaneModule(): string {
  const start = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'test', 'cluster', 'controlplane.mjs');
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) {
      throw new Error(`cannot find test/cluster/controlplane.mjs in ${start} or any parent directory`);
    }
  }
}

/** Absolute path of test/cluster/controlplane.mjs (also usable with `node … up|down`). */
export const controlPlaneModulePath: string = locateControlPlaneModule();

const mod = (await import(pathToFileURL(controlPlaneModulePath).href)) as typeof ControlPlaneModule;

export const startControlPlane: typeof ControlPlaneModule.startControlPlane = mod.startControlPlane;
export const ensureBinaries: typeof ControlPlaneModule.ensureBinaries = mod.ensureBinaries;
export const stopRecorded: typeof ControlPlaneModule.stopRecorded = mod.stopRecorded;
