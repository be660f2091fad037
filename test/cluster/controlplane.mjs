// A real Kubernetes control plane for the cluster tests, as child processes:
// etcd -> kube-apiserver -> kube-controller-manager + kube-scheduler, all on 127.0.0.1.
// No kubelet: tests create Node objects themselves and patch pod status (see smoke.mjs).
//
// Library:
//   import { startControlPlane } from './controlplane.mjs';
//   const cp = await startControlPlane({ binDir, workDir, auditLog: true });
//   await cp.kubectl(['get', 'nodes']);   // -> { code, stdout, stderr }
//   await cp.stop();
//
// CLI (state in test/cluster/.work/ unless --work-dir is given):
//   node test/cluster/controlplane.mjs up [--bin-dir DIR] [--work-dir DIR] [--audit-log]
//   node test/cluster/controlplane.mjs down [--work-dir DIR]
//   node test/cluster/controlplane.mjs status [--work-dir DIR]
// `up` runs test/cluster/build.sh (cached; honours DS_DOCTOR_K8S_BIN_DIR) unless --bin-dir is given,
// leaves the processes running and prints the kubeconfig path; `down` stops them.
//
// Only Node's standard library is used.

import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import https from 'node:https';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const THIS_FILE = fileURLToPath(import.meta.url);

/** Files and directories this module creates inside workDir (and may remove on reset). */
const MANAGED = [
  'etcd',
  'pki',
  'logs',
  'audit.log',
  'audit-policy.yaml',
  'tokens.csv',
  'sa.key',
  'sa.pub',
  'kubeconfig',
  'kube-controller-manager.kubeconfig',
  'kube-scheduler.kubeconfig',
  'kube-scheduler.yaml',
  'state.json',
];

const DEFAULT_CONTROLLERS = ['daemonset-controller', 'garbage-collector-controller', 'namespace-controller'];
/** Admission plugins switched off unless `enableAdmissionPlugins` names them. */
const DEFAULT_DISABLED_ADMISSION = ['ServiceAccount', 'TaintNodesByCondition'];

// ---------------------------------------------------------------------------------------
// process bookkeeping shared by all control planes of this Node process

/** @type {Set<{kill:(sig:NodeJS.Signals)=>void}>} */
const live = new Set();
let hooksInstalled = false;

function installExitHooks() {
  if (hooksInstalled) return;
  hooksInstalled = true;
  // 'exit' handlers must be synchronous: SIGKILL the process groups right away.
  process.on('exit', () => {
    for (const cp of live) cp.kill('SIGKILL');
  });
  for (const sig of /** @type {NodeJS.Signals[]} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
    const onSignal = () => {
      for (const cp of live) cp.kill('SIGKILL');
      live.clear();
      process.removeListener(sig, onSignal);
      // Behave as if we had not been listening: default action unless someone else listens.
      if (process.listenerCount(sig) === 0) process.kill(process.pid, sig);
    };
    process.on(sig, onSignal);
  }
}

function killGroup(pid, sig) {
  try {
    process.kill(-pid, sig);
    return true;
  } catch {
    /* group gone */
  }
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return e.code === 'EPERM';
  }
  // A zombie has exited; its reaper (not us, once the process was re-parented) may be slow.
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] !== 'Z';
  } catch (e) {
    return e.code !== 'ENOENT';
  }
}

/** argv[0] of a running pid (Linux /proc), or null when unknown. */
function procArgv0(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0];
  } catch {
    return null;
  }
}

/** True when pid still runs the binary we started (guards against pid reuse). */
function isOurs(pid, bin) {
  if (!alive(pid)) return false;
  const a0 = procArgv0(pid);
  return a0 === null ? process.platform !== 'linux' : a0 === bin;
}

async function stopProcesses(procs, graceMs = 5000) {
  const running = procs.filter((p) => isOurs(p.pid, p.bin));
  for (const p of running) killGroup(p.pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && running.some((p) => alive(p.pid))) await sleep(50);
  for (const p of running) if (alive(p.pid)) killGroup(p.pid, 'SIGKILL');
  const hard = Date.now() + 5000;
  while (Date.now() < hard && running.some((p) => alive(p.pid))) await sleep(50);
}

/** Clients first (controller-manager, scheduler), then the apiserver, then etcd. */
async function stopOrdered(procs) {
  const tier = (p) => (p.name === 'etcd' ? 2 : p.name === 'kube-apiserver' ? 1 : 0);
  for (const t of [0, 1, 2]) await stopProcesses(procs.filter((p) => tier(p) === t));
}

// ---------------------------------------------------------------------------------------
// helpers

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Reserve n distinct free loopback ports (all held open at once, then released). */
async function freePorts(n) {
  const servers = [];
  try {
    for (let i = 0; i < n; i++) {
      const s = net.createServer();
      await new Promise((res, rej) => {
        s.once('error', rej);
        s.listen(0, '127.0.0.1', res);
      });
      servers.push(s);
    }
    return servers.map((s) => /** @type {net.AddressInfo} */ (s.address()).port);
  } finally {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(() => r()))));
  }
}

/** GET url; resolves {status, body} or {error}. Never rejects. */
function probe(url, { token, ca, timeoutMs = 3000 } = {}) {
  return new Promise((resolve) => {
    const u = new URL(url);
    const mod = u.protocol === 'https:' ? https : http;
    const opts = { method: 'GET', timeout: timeoutMs, headers: {}, agent: false };
    if (u.protocol === 'https:') Object.assign(opts, ca ? { ca } : { rejectUnauthorized: false });
    if (token) opts.headers.Authorization = `Bearer ${token}`;
    const req = mod.request(u, opts, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        if (body.length < 4096) body += d;
      });
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('timeout', () => req.destroy(new Error(`timeout after ${timeoutMs}ms`)));
    req.on('error', (e) => resolve({ error: e.message }));
    req.end();
  });
}

function tail(file, lines = 40) {
  try {
    const buf = fs.readFileSync(file, 'utf8');
    return buf
      .split('\n')
      .slice(-lines - 1)
      .join('\n')
      .trimEnd();
  } catch (e) {
    return `(cannot read ${file}: ${e.message})`;
  }
}

function yamlStr(s) {
  return JSON.stringify(String(s));
} // JSON strings are valid YAML scalars

function kubeconfigYaml({ server, caData, users, contexts, current }) {
  const lines = [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: ds-doctor-test',
    '  cluster:',
    `    server: ${yamlStr(server)}`,
    `    certificate-authority-data: ${yamlStr(caData)}`,
    'users:',
  ];
  for (const [name, token] of Object.entries(users)) {
    lines.push(`- name: ${yamlStr(name)}`, '  user:', `    token: ${yamlStr(token)}`);
  }
  lines.push('contexts:');
  for (const [name, user] of Object.entries(contexts)) {
    lines.push(`- name: ${yamlStr(name)}`, '  context:', '    cluster: ds-doctor-test', `    user: ${yamlStr(user)}`);
  }
  lines.push(`current-context: ${yamlStr(current)}`, 'preferences: {}', '');
  return lines.join('\n');
}

/** Run a program, collect output. Resolves {code, stdout, stderr}; never rejects on exit code. */
function run(bin, args, { input, env, timeoutMs = 60_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { env: env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (d) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) stderr += `\n(killed after ${timeoutMs}ms)`;
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(input ?? '');
  });
}

// ---------------------------------------------------------------------------------------
// the control plane

/**
 * Start etcd, kube-apiserver, kube-controller-manager and kube-scheduler.
 * @param {object} o
 * @param {string} o.binDir   directory with etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kubectl
 * @param {string} o.workDir  created if missing; holds etcd data, certs, logs, kubeconfig
 * @param {boolean} [o.auditLog]  write every request at Metadata level to <workDir>/audit.log (JSON lines)
 * @param {boolean} [o.reset]  remove what an earlier run left in workDir (only the names in MANAGED) first
 * @param {number} [o.timeoutMs]  per-component readiness timeout (default 120000)
 * @param {string[]} [o.extraControllers]  controllers to run in addition to the default three
 * @param {string[]} [o.enableAdmissionPlugins]  admission plugins to keep on although disabled by default here
 *   (e.g. ['TaintNodesByCondition'] together with the node-lifecycle-controller)
 * @param {string[]} [o.controllerManagerArgs]  extra kube-controller-manager flags
 *   (e.g. ['--node-monitor-grace-period=4s'])
 * @param {boolean} [o.keepAlive]  do not stop the processes when this Node process exits (CLI `up`)
 * @param {(msg:string)=>void} [o.log]  progress messages (default: silent)
 */
export async function startControlPlane(o) {
  if (!o || !o.binDir || !o.workDir) throw new TypeError('startControlPlane: binDir and workDir are required');
  const binDir = path.resolve(o.binDir);
  const workDir = path.resolve(o.workDir);
  const timeoutMs = o.timeoutMs ?? 120_000;
  const log = o.log ?? (() => {});
  const bin = (n) => path.join(binDir, n);
  for (const n of ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubectl']) {
    try {
      fs.accessSync(bin(n), fs.constants.X_OK);
    } catch {
      throw new Error(`startControlPlane: ${bin(n)} is missing or not executable; run test/cluster/build.sh`);
    }
  }

  await fsp.mkdir(workDir, { recursive: true });
  await checkPreviousRun(workDir, !!o.reset);
  const etcdDir = path.join(workDir, 'etcd');
  const etcdHadData = fs.existsSync(etcdDir) && fs.readdirSync(etcdDir).length > 0;
  if (etcdHadData) {
    throw new Error(
      `startControlPlane: ${etcdDir} holds data from an earlier run; ` +
        'pass reset: true (CLI: up removes it itself) or use an empty workDir',
    );
  }
  const logDir = path.join(workDir, 'logs');
  const pkiDir = path.join(workDir, 'pki');
  await fsp.mkdir(logDir, { recursive: true });
  await fsp.mkdir(pkiDir, { recursive: true, mode: 0o700 });

  // --- credentials -------------------------------------------------------------------
  const tok = () => randomBytes(24).toString('hex');
  const token = tok();
  const readerToken = tok();
  const kcmToken = tok();
  const schedToken = tok();
  const f = (n) => path.join(workDir, n);
  await fsp.writeFile(
    f('tokens.csv'),
    [
      `${token},admin,admin-uid,"system:masters"`,
      `${readerToken},reader,reader-uid`,
      // The controller manager runs without per-controller service accounts (no token
      // controller), so it needs full access, like the admin.
      `${kcmToken},system:kube-controller-manager,kcm-uid,"system:masters"`,
      // The scheduler uses its bootstrap RBAC role, as in a real cluster.
      `${schedToken},system:kube-scheduler,scheduler-uid`,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  await fsp.writeFile(f('sa.key'), privateKey, { mode: 0o600 });
  await fsp.writeFile(f('sa.pub'), publicKey);
  const auditLogPath = o.auditLog ? f('audit.log') : null;
  if (auditLogPath) {
    await fsp.writeFile(
      f('audit-policy.yaml'),
      [
        'apiVersion: audit.k8s.io/v1',
        'kind: Policy',
        '# One event per request (RequestReceived is not logged separately), metadata only.',
        'omitStages: ["RequestReceived"]',
        'rules:',
        '- level: Metadata',
        '',
      ].join('\n'),
    );
  }

  /** @type {{name:string,pid:number,bin:string,log:string,child:import('node:child_process').ChildProcess}[]} */
  const procs = [];
  const statePath = f('state.json');
  let stopped = false;
  /** @type {import('node:child_process').ChildProcess | null} */
  let watchdog = null;
  const handle = {
    kill(sig) {
      for (const p of procs) if (isOurs(p.pid, p.bin)) killGroup(p.pid, sig);
      if (watchdog && alive(watchdog.pid)) killGroup(watchdog.pid, 'SIGKILL');
    },
  };
  const writeState = (extra = {}) =>
    fs.writeFileSync(
      statePath,
      JSON.stringify(
        {
          running: !stopped,
          ownerPid: process.pid,
          keepAlive: !!o.keepAlive,
          workDir,
          binDir,
          processes: procs.map(({ name, pid, bin: b, log: l }) => ({ name, pid, bin: b, log: l })),
          ...extra,
        },
        null,
        2,
      ) + '\n',
    );

  if (!o.keepAlive) {
    installExitHooks();
    live.add(handle);
  }

  const childEnv = { ...process.env };
  delete childEnv.KUBECONFIG;
  childEnv.NO_PROXY = ['127.0.0.1', 'localhost', childEnv.NO_PROXY].filter(Boolean).join(',');
  childEnv.no_proxy = childEnv.NO_PROXY;

  const start = (name, args, { append = false } = {}) => {
    const logFile = path.join(logDir, `${name}.log`);
    const fd = fs.openSync(logFile, append ? 'a' : 'w');
    const child = spawn(bin(name), args, {
      cwd: workDir,
      env: childEnv,
      detached: true,
      stdio: ['ignore', fd, fd],
    });
    fs.closeSync(fd);
    child.unref();
    const p = { name, pid: child.pid, bin: bin(name), log: logFile, child, exit: null };
    child.on('exit', (code, signal) => {
      p.exit = { code, signal };
    });
    child.on('error', (e) => {
      p.exit = { code: null, signal: null, error: e.message };
    });
    procs.push(p);
    writeState();
    return p;
  };

  // The first failing component wins: later waiters (whose processes we are stopping
  // because of it) report the same error instead of their own exit.
  let firstFailure = null;
  const failWith = (p, why) => {
    firstFailure ??= (async () => {
      const msg = `${p.name} ${why}\n--- last lines of ${p.log} ---\n${tail(p.log)}`;
      stopped = true;
      await stopOrdered(procs);
      if (watchdog) killGroup(watchdog.pid, 'SIGKILL');
      live.delete(handle);
      writeState({ error: msg.split('\n')[0] });
      const err = new Error(msg);
      err.component = p.name;
      err.logFile = p.log;
      return err;
    })();
    return firstFailure;
  };

  /** Poll check() until it returns true; fail when the process exits or time runs out. */
  const waitReady = async (p, what, check) => {
    const t0 = Date.now();
    let last = 'no response yet';
    while (Date.now() - t0 < timeoutMs) {
      if (firstFailure) throw await firstFailure;
      if (p.exit) {
        const how = p.exit.error ?? (p.exit.signal ? `signal ${p.exit.signal}` : `code ${p.exit.code}`);
        throw await failWith(p, `exited during start-up (${how}) while waiting for ${what}`);
      }
      const r = await check();
      if (r === true) return Date.now() - t0;
      last = r;
      await sleep(200);
    }
    const limit = timeoutMs >= 10_000 ? `${Math.round(timeoutMs / 1000)}s` : `${timeoutMs}ms`;
    throw await failWith(p, `did not become ready within ${limit} (${what}: ${last})`);
  };
  const httpCheck = (url, opts) => async () => {
    const r = await probe(url, typeof opts === 'function' ? opts() : opts);
    if (r.error) return r.error;
    return r.status === 200
      ? true
      : `HTTP ${r.status} ${
          r.body
            .split('\n')
            .filter((l) => l.includes('[-]'))
            .join(' ') || r.body.slice(0, 200)
        }`;
  };

  const tStart = Date.now();
  const timings = {};
  try {
    writeState();
    if (!o.keepAlive) {
      // A detached helper that SIGKILLs our process groups if this Node process dies
      // without running its exit hooks (e.g. SIGKILL from a test-runner timeout).
      watchdog = spawn(process.execPath, [THIS_FILE, '__watchdog', String(process.pid), statePath], {
        detached: true,
        stdio: 'ignore',
        env: childEnv,
      });
      watchdog.unref();
    }

    const [etcdPort, peerPort, apiPort, kcmPort, schedPort] = await freePorts(5);

    // --- etcd --------------------------------------------------------------------------
    const etcdUrl = `http://127.0.0.1:${etcdPort}`;
    const peerUrl = `http://127.0.0.1:${peerPort}`;
    const etcd = start('etcd', [
      '--name=default',
      `--data-dir=${etcdDir}`,
      `--listen-client-urls=${etcdUrl}`,
      `--advertise-client-urls=${etcdUrl}`,
      `--listen-peer-urls=${peerUrl}`,
      `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=default=${peerUrl}`,
      '--initial-cluster-state=new',
      '--unsafe-no-fsync=true',
      '--log-level=warn',
    ]);
    log(`etcd pid ${etcd.pid} on ${etcdUrl}`);
    timings.etcdMs = await waitReady(etcd, `${etcdUrl}/health`, async () => {
      const r = await probe(`${etcdUrl}/health`);
      if (r.error) return r.error;
      return r.status === 200 && /"health":\s*"true"/.test(r.body) ? true : `HTTP ${r.status} ${r.body}`;
    });

    // --- kube-apiserver ----------------------------------------------------------------
    const server = `https://127.0.0.1:${apiPort}`;
    const enabledPlugins = o.enableAdmissionPlugins ?? [];
    const disabledPlugins = DEFAULT_DISABLED_ADMISSION.filter((p) => !enabledPlugins.includes(p));
    const apiArgs = [
      `--etcd-servers=${etcdUrl}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      `--secure-port=${apiPort}`,
      `--cert-dir=${pkiDir}`,
      '--service-cluster-ip-range=10.0.0.0/24',
      '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
      `--service-account-key-file=${f('sa.pub')}`,
      `--service-account-signing-key-file=${f('sa.key')}`,
      `--token-auth-file=${f('tokens.csv')}`,
      '--authorization-mode=Node,RBAC',
      // No serviceaccount controller runs, and nothing removes the not-ready taint that
      // TaintNodesByCondition would put on every new Node (no node-lifecycle controller),
      // unless the caller runs that controller and asks for the plugin.
      `--disable-admission-plugins=${disabledPlugins.join(',')}`,
      ...(enabledPlugins.length ? [`--enable-admission-plugins=${enabledPlugins.join(',')}`] : []),
      '--allow-privileged=true',
      '--endpoint-reconciler-type=none',
    ];
    if (auditLogPath) {
      apiArgs.push(
        `--audit-policy-file=${f('audit-policy.yaml')}`,
        `--audit-log-path=${auditLogPath}`,
        '--audit-log-format=json',
        '--audit-log-mode=blocking',
        '--audit-log-maxbackup=0',
        '--audit-log-maxsize=0',
      );
    }
    const apiserver = start('kube-apiserver', apiArgs);
    log(`kube-apiserver pid ${apiserver.pid} on ${server}`);
    const caFile = path.join(pkiDir, 'apiserver.crt');
    let ca = null;
    timings.apiserverMs = await waitReady(apiserver, `${server}/readyz`, async () => {
      if (!ca) {
        try {
          ca = fs.readFileSync(caFile, 'utf8');
        } catch {
          return `${caFile} not written yet`;
        }
        if (!ca.includes('END CERTIFICATE')) {
          ca = null;
          return `${caFile} incomplete`;
        }
      }
      return httpCheck(`${server}/readyz`, { token, ca })();
    });

    // --- kubeconfigs -------------------------------------------------------------------
    const caData = Buffer.from(ca).toString('base64');
    const kubeconfig = f('kubeconfig');
    await fsp.writeFile(
      kubeconfig,
      kubeconfigYaml({
        server,
        caData,
        users: { admin: token, reader: readerToken },
        contexts: { admin: 'admin', reader: 'reader' },
        current: 'admin',
      }),
      { mode: 0o600 },
    );
    const kcmKc = f('kube-controller-manager.kubeconfig');
    await fsp.writeFile(
      kcmKc,
      kubeconfigYaml({
        server,
        caData,
        users: { 'kube-controller-manager': kcmToken },
        contexts: { default: 'kube-controller-manager' },
        current: 'default',
      }),
      { mode: 0o600 },
    );
    const schedKc = f('kube-scheduler.kubeconfig');
    await fsp.writeFile(
      schedKc,
      kubeconfigYaml({
        server,
        caData,
        users: { 'kube-scheduler': schedToken },
        contexts: { default: 'kube-scheduler' },
        current: 'default',
      }),
      { mode: 0o600 },
    );
    await fsp.writeFile(
      f('kube-scheduler.yaml'),
      [
        'apiVersion: kubescheduler.config.k8s.io/v1',
        'kind: KubeSchedulerConfiguration',
        'clientConnection:',
        `  kubeconfig: ${yamlStr(schedKc)}`,
        'leaderElection:',
        '  leaderElect: false',
        '',
      ].join('\n'),
    );

    // --- kube-controller-manager and kube-scheduler (in parallel) ----------------------
    const controllers = [...DEFAULT_CONTROLLERS, ...(o.extraControllers ?? [])];
    const kcm = start('kube-controller-manager', [
      `--kubeconfig=${kcmKc}`,
      `--authentication-kubeconfig=${kcmKc}`,
      `--authorization-kubeconfig=${kcmKc}`,
      `--controllers=${controllers.join(',')}`,
      // Tokens only, no client certificates: do not look for the client-CA ConfigMap the
      // apiserver only publishes when --client-ca-file is set (avoids an error loop in the log).
      '--authentication-skip-lookup=true',
      '--leader-elect=false',
      '--bind-address=127.0.0.1',
      `--secure-port=${kcmPort}`,
      ...(o.controllerManagerArgs ?? []),
    ]);
    const sched = start('kube-scheduler', [
      `--config=${f('kube-scheduler.yaml')}`,
      `--authentication-kubeconfig=${schedKc}`,
      `--authorization-kubeconfig=${schedKc}`,
      '--authentication-skip-lookup=true',
      '--bind-address=127.0.0.1',
      `--secure-port=${schedPort}`,
    ]);
    log(`kube-controller-manager pid ${kcm.pid}, kube-scheduler pid ${sched.pid}`);
    const [kcmMs, schedMs] = await Promise.all([
      waitReady(kcm, `https://127.0.0.1:${kcmPort}/healthz`, httpCheck(`https://127.0.0.1:${kcmPort}/healthz`, {})),
      waitReady(
        sched,
        `https://127.0.0.1:${schedPort}/healthz`,
        httpCheck(`https://127.0.0.1:${schedPort}/healthz`, {}),
      ),
    ]);
    timings.controllerManagerMs = kcmMs;
    timings.schedulerMs = schedMs;
    timings.totalMs = Date.now() - tStart;
    writeState({ server, kubeconfig, timings });
    log(`control plane ready in ${timings.totalMs} ms`);

    const kubectl = (args, opts = {}) => {
      const pre = [`--kubeconfig=${kubeconfig}`];
      if (opts.context) pre.push(`--context=${opts.context}`);
      return run(bin('kubectl'), [...pre, ...args], { input: opts.input, env: childEnv, timeoutMs: opts.timeoutMs });
    };

    let stopping = null;
    return {
      kubeconfig,
      server,
      token,
      readerToken,
      ca,
      auditLogPath,
      workDir,
      binDir,
      logDir,
      timings,
      ports: {
        etcd: etcdPort,
        etcdPeer: peerPort,
        apiserver: apiPort,
        controllerManager: kcmPort,
        scheduler: schedPort,
      },
      processes: procs.map(({ name, pid, log: l }) => ({ name, pid, log: l })),
      env: { KUBECONFIG: kubeconfig },
      kubectl,
      async restartApiServer(downMs = 0) {
        const old = procs.find((p) => p.name === 'kube-apiserver');
        if (!old || stopped) throw new Error('restartApiServer: the control plane is not running');
        await stopProcesses([old]);
        procs.splice(procs.indexOf(old), 1);
        if (downMs > 0) await sleep(downMs);
        const restarted = start('kube-apiserver', apiArgs, { append: true });
        log(`kube-apiserver restarted: pid ${restarted.pid}`);
        await waitReady(restarted, `${server}/readyz`, httpCheck(`${server}/readyz`, { token, ca }));
        writeState({ server, kubeconfig, timings });
      },
      stop() {
        stopping ??= (async () => {
          stopped = true;
          await stopOrdered(procs);
          if (watchdog && alive(watchdog.pid)) killGroup(watchdog.pid, 'SIGKILL');
          live.delete(handle);
          writeState();
        })();
        return stopping;
      },
    };
  } catch (e) {
    if (!stopped) {
      stopped = true;
      await stopOrdered(procs);
      if (watchdog) killGroup(watchdog.pid, 'SIGKILL');
      live.delete(handle);
      try {
        writeState({ error: String(e.message).split('\n')[0] });
      } catch {
        /* ignore */
      }
    }
    throw e;
  }
}

/** Refuse to start over a running control plane; optionally remove a finished run's files. */
async function checkPreviousRun(workDir, reset) {
  const statePath = path.join(workDir, 'state.json');
  let state = null;
  try {
    state = JSON.parse(fs.readFileSync(statePath, 'utf8'));
  } catch {
    /* none */
  }
  const running = (state?.processes ?? []).filter((p) => isOurs(p.pid, p.bin));
  if (running.length) {
    throw new Error(
      `startControlPlane: a control plane is still running in ${workDir} ` +
        `(${running.map((p) => `${p.name} pid ${p.pid}`).join(', ')}); stop it first ` +
        `(node ${path.relative(process.cwd(), THIS_FILE)} down --work-dir ${workDir})`,
    );
  }
  if (reset) {
    for (const n of MANAGED) await fsp.rm(path.join(workDir, n), { recursive: true, force: true });
  }
}

/** Stop the processes recorded in <workDir>/state.json (used by CLI `down`). */
export async function stopRecorded(workDir) {
  const statePath = path.join(path.resolve(workDir), 'state.json');
  let state;
  try {
    state = JSON.parse(fs.readFileSync(statePath, 'utf8'));
  } catch {
    return [];
  }
  const procs = (state.processes ?? []).filter((p) => isOurs(p.pid, p.bin));
  await stopOrdered(procs);
  state.running = false;
  fs.writeFileSync(statePath, JSON.stringify(state, null, 2) + '\n');
  return procs.map((p) => p.name);
}

// ---------------------------------------------------------------------------------------
// CLI

async function watchdogMain(ownerPid, statePath) {
  // Runs detached. Exit quietly once the control plane was stopped; kill it if the owner died.
  for (;;) {
    await sleep(1000);
    let state = null;
    try {
      state = JSON.parse(fs.readFileSync(statePath, 'utf8'));
    } catch {
      /* keep polling */
    }
    if (state && (state.running === false || state.ownerPid !== ownerPid)) return;
    if (!alive(ownerPid)) {
      for (const p of state?.processes ?? []) if (isOurs(p.pid, p.bin)) killGroup(p.pid, 'SIGKILL');
      return;
    }
  }
}

function parseArgs(argv) {
  const out = { _: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const [k, v] = a.slice(2).split('=', 2);
      if (v !== undefined) out[k] = v;
      else if (argv[i + 1] && !argv[i + 1].startsWith('--') && ['bin-dir', 'work-dir', 'timeout'].includes(k))
        out[k] = argv[++i];
      else out[k] = true;
    } else out._.push(a);
  }
  return out;
}

/**
 * Run test/cluster/build.sh (a no-op when the binaries are cached) and return the
 * binary directory it prints. Build progress goes to this process's stderr.
 */
export async function ensureBinaries() {
  const r = await new Promise((resolve, reject) => {
    const c = spawn('bash', [path.join(HERE, 'build.sh')], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    c.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
    });
    c.on('error', reject);
    c.on('close', (code) => resolve({ code, out }));
  });
  if (r.code !== 0) throw new Error(`build.sh failed with code ${r.code}`);
  return r.out.trim().split('\n').pop();
}

async function cli(argv) {
  const args = parseArgs(argv);
  const cmd = args._[0];
  const workDir = path.resolve(args['work-dir'] ?? path.join(HERE, '.work'));
  if (cmd === '__watchdog') return watchdogMain(Number(args._[1]), args._[2]);
  if (cmd === 'up') {
    const binDir = args['bin-dir'] ?? (await ensureBinaries());
    const cp = await startControlPlane({
      binDir,
      workDir,
      auditLog: !!args['audit-log'],
      reset: true,
      keepAlive: true,
      timeoutMs: args.timeout ? Number(args.timeout) * 1000 : undefined,
      log: (m) => process.stderr.write(`controlplane: ${m}\n`),
    });
    process.stdout.write(
      [
        `server:     ${cp.server}`,
        `kubeconfig: ${cp.kubeconfig}   (contexts: admin [current], reader)`,
        `logs:       ${cp.logDir}`,
        ...(cp.auditLogPath ? [`audit log:  ${cp.auditLogPath}`] : []),
        `started in ${(cp.timings.totalMs / 1000).toFixed(1)} s; stop with: node ${path.relative(process.cwd(), THIS_FILE)} down` +
          (args['work-dir'] ? ` --work-dir ${workDir}` : ''),
        `export KUBECONFIG=${cp.kubeconfig}`,
        '',
      ].join('\n'),
    );
    return;
  }
  if (cmd === 'down') {
    const names = await stopRecorded(workDir);
    process.stdout.write(names.length ? `stopped: ${names.join(', ')}\n` : `nothing running in ${workDir}\n`);
    return;
  }
  if (cmd === 'status') {
    let state = null;
    try {
      state = JSON.parse(fs.readFileSync(path.join(workDir, 'state.json'), 'utf8'));
    } catch {
      /* none */
    }
    const procs = state?.processes ?? [];
    for (const p of procs)
      process.stdout.write(
        `${p.name.padEnd(24)} pid ${String(p.pid).padEnd(8)} ${isOurs(p.pid, p.bin) ? 'running' : 'stopped'}\n`,
      );
    if (!procs.length) process.stdout.write(`no control plane recorded in ${workDir}\n`);
    if (state?.kubeconfig) process.stdout.write(`kubeconfig: ${state.kubeconfig}\n`);
    process.exitCode = procs.some((p) => isOurs(p.pid, p.bin)) ? 0 : 1;
    return;
  }
  process.stderr.write(
    'usage: node test/cluster/controlplane.mjs up [--bin-dir DIR] [--work-dir DIR] [--audit-log] [--timeout SECONDS]\n' +
      '       node test/cluster/controlplane.mjs down|status [--work-dir DIR]\n',
  );
  process.exitCode = 2;
}

if (process.argv[1] && path.resolve(process.argv[1]) === THIS_FILE) {
  cli(process.argv.slice(2)).catch((e) => {
    process.stderr.write(`controlplane: ${e.message}\n`);
    process.exit(1);
  });
}
