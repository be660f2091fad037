#!/usr/bin/env node
// `npm run package`: the single executable and the krew archive for the platform this runs on,
// and the krew manifest (plugins/ds-doctor.yaml) listing every archive in dist/release/.
//
//   1. esbuild bundles the CLI into one CommonJS file (Node 20 runs only CommonJS as the main
//      script of a single executable), as for bin/ (scripts/bundle.mjs): the live loader stays
//      behind its dynamic import, so @kubernetes/client-node is bundled but never evaluated on
//      the offline path.
//   2. Node's single executable application: `node --experimental-sea-config` writes the blob,
//      postject injects it into a copy of this node binary (nodejs.org/api/single-executable-applications.html).
//   3. The archive krew expects: kubectl-ds_doctor, kubectl_complete-ds_doctor, LICENSE.
//   4. The manifest, with each archive's sha256 and its release URL.
//
// A release job runs this on each platform's runner (see docs/install.md); DS_DOCTOR_RELEASE_URL
// sets where the archives are published (default: the GitHub release of the version's tag).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'postject';
import { gitCommit } from './build-info.mjs';
import { bundleCli } from './bundle.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const release = join(root, 'dist', 'release');
const work = join(release, '.work');
const GOOS = { win32: 'windows' }[process.platform] ?? process.platform;
const GOARCH = { x64: 'amd64', arm64: 'arm64' }[process.arch] ?? process.arch;
const EXE = GOOS === 'windows' ? '.exe' : '';
const RELEASE_URL =
  process.env.DS_DOCTOR_RELEASE_URL ?? `https://github.com/ds-doctor/ds-doctor/releases/download/v${pkg.version}`;
// The sentinel Node's binary carries to say it may hold a single-executable blob.
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** Runs a step and reports how long it took. */
async function step(name, fn) {
  const start = Date.now();
  const result = await fn();
  console.log(`${name}: ${((Date.now() - start) / 1000).toFixed(1)}s`);
  return result;
}

/** 1. One CommonJS file that runs the CLI, with the commit compiled in (scripts/bundle.mjs). */
function bundle(commit) {
  return bundleCli(join(work, 'ds-doctor.cjs'), commit, { start: true });
}

/** 2. The single executable: the blob, injected into a copy of this node binary. */
function singleExecutable(script, exe) {
  const config = join(work, 'sea-config.json');
  const blob = join(work, 'sea-prep.blob');
  writeFileSync(
    config,
    JSON.stringify({ main: script, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true }),
  );
  execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: ['ignore', 'ignore', 'inherit'] });
  copyFileSync(process.execPath, exe);
  chmodSync(exe, 0o755);
  if (GOOS === 'darwin') execFileSync('codesign', ['--remove-signature', exe]);
  return inject(exe, 'NODE_SEA_BLOB', readFileSync(blob), {
    sentinelFuse: SEA_FUSE,
    ...(GOOS === 'darwin' ? { machoSegmentName: 'NODE_SEA' } : {}),
  }).then(() => {
    if (GOOS === 'darwin') execFileSync('codesign', ['--sign', '-', exe]);
  });
}

/** 3. The archive: the executable, the completion helper for kubectl and the licence, in a reproducible tar.gz. */
function archive(exe, commitTime) {
  const stage = join(work, 'archive');
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  copyFileSync(exe, join(stage, `kubectl-ds_doctor${EXE}`));
  // kubectl >= 1.26 runs kubectl_complete-ds_doctor for `kubectl ds-doctor <TAB>`.
  writeFileSync(
    join(stage, 'kubectl_complete-ds_doctor'),
    '#!/bin/sh\n# kubectl >= 1.26 runs this for `kubectl ds-doctor <TAB>`.\nexec kubectl-ds_doctor __complete "$@"\n',
    { mode: 0o755 },
  );
  copyFileSync(join(root, 'LICENSE'), join(stage, 'LICENSE'));
  const name = `ds-doctor_v${pkg.version}_${GOOS}_${GOARCH}.tar.gz`;
  const out = join(release, name);
  const files = readdirSync(stage).sort();
  const tar = execFileSync(
    'tar',
    [
      '--sort=name',
      '--owner=0',
      '--group=0',
      '--numeric-owner',
      `--mtime=@${commitTime}`,
      '-cf',
      '-',
      '-C',
      stage,
      ...files,
    ],
    { maxBuffer: 1 << 30 },
  );
  writeFileSync(out, execFileSync('gzip', ['-n'], { input: tar, maxBuffer: 1 << 30 }));
  return out;
}

const LONG = `ds-doctor explains DaemonSets the way Kubernetes decides them: why there is no
(healthy) pod on a node, why a rollout is stuck, what breaks if a DaemonSet is deleted, and
what is wrong with a manifest. Each answer has a reason code, evidence and a fix. It reads the
live cluster of your kubeconfig or a dump (-f), and never writes to the cluster.
`;

const CAVEATS = `ds-doctor only reads (get, list) from the cluster. For the live mode your user needs
read access to nodes, daemonsets, pods, events, controllerrevisions (and, when present,
poddisruptionbudgets, priorityclasses, services, endpointslices); the README has a read-only
ClusterRole "ds-doctor-reader". Without cluster access, analyse a dump:
  kubectl ds-doctor scan -f dump.yaml
Shell completion of kubectl ds-doctor (kubectl >= 1.26) needs kubectl_complete-ds_doctor on
your PATH, which krew does not link:
  ln -s "\${KREW_ROOT:-$HOME/.krew}/store/ds-doctor/v${pkg.version}/kubectl_complete-ds_doctor" "\${KREW_ROOT:-$HOME/.krew}/bin/"
`;

/** 4. plugins/ds-doctor.yaml: one platform per archive in dist/release/. */
function manifest() {
  const platforms = readdirSync(release)
    .filter((f) => /^ds-doctor_v[^_]+_[a-z]+_[a-z0-9]+\.tar\.gz$/.test(f) && f.includes(`_v${pkg.version}_`))
    .sort()
    .map((file) => {
      const [, os, arch] = /_([a-z]+)_([a-z0-9]+)\.tar\.gz$/.exec(file);
      const sha256 = createHash('sha256')
        .update(readFileSync(join(release, file)))
        .digest('hex');
      const bin = os === 'windows' ? 'kubectl-ds_doctor.exe' : 'kubectl-ds_doctor';
      return [
        '  - selector:',
        '      matchLabels:',
        `        os: ${os}`,
        `        arch: ${arch}`,
        `    uri: ${RELEASE_URL}/${file}`,
        `    sha256: ${sha256}`,
        '    files:',
        `      - from: ${bin}`,
        '        to: .',
        ...(os === 'windows' ? [] : ['      - from: kubectl_complete-ds_doctor', '        to: .']),
        '      - from: LICENSE',
        '        to: .',
        `    bin: ${bin}`,
      ].join('\n');
    });
  const indent = (text) =>
    text
      .trimEnd()
      .split('\n')
      .map((l) => (l ? `    ${l}` : ''))
      .join('\n');
  const yaml = `# Generated by \`npm run package\` (scripts/package.mjs): do not edit.
apiVersion: krew.googlecontainertools.github.com/v1alpha2
kind: Plugin
metadata:
  name: ds-doctor
spec:
  version: v${pkg.version}
  homepage: https://github.com/ds-doctor/ds-doctor
  shortDescription: Explain why DaemonSet pods are missing, stuck or at risk
  description: |
${indent(LONG)}
  caveats: |
${indent(CAVEATS)}
  platforms:
${platforms.join('\n')}
`;
  mkdirSync(join(root, 'plugins'), { recursive: true });
  writeFileSync(join(root, 'plugins', 'ds-doctor.yaml'), yaml);
  return platforms.length;
}

const commit = gitCommit();
const commitTime =
  commit === 'unknown'
    ? 0
    : Number(execFileSync('git', ['log', '-1', '--format=%ct'], { cwd: root, encoding: 'utf8' }).trim());
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const script = await step('bundle (esbuild)', () => bundle(commit));
const exe = join(release, `ds-doctor-${GOOS}-${GOARCH}${EXE}`);
await step('single executable (sea-config + postject)', () => singleExecutable(script, exe));
const tgz = await step('archive', () => archive(exe, commitTime));
const count = await step('krew manifest', () => manifest());
rmSync(work, { recursive: true, force: true });
console.log(`${exe}\n${tgz}\nplugins/ds-doctor.yaml (${count} platform${count === 1 ? '' : 's'}, commit ${commit})`);
