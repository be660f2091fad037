// Live mode through an HTTPS proxy: a kubeconfig cluster with `proxy-url` sends every request
// through a CONNECT tunnel (client-node builds the agent; ds-doctor's raw requests use it). The
// proxy here is a minimal CONNECT relay on 127.0.0.1 that records the tunnels it opened.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { ControlPlane } from '../cluster/harness.js';
import {
  create,
  daemonSetObject,
  kubeconfigVariant,
  namespaceObject,
  nodeObject,
  spawnCli,
  startCluster,
  stopCluster,
  waitForDaemonPods,
} from './cluster.js';

/** A CONNECT-only proxy; `tunnels` lists the host:port of every tunnel it opened. */
function connectProxy(): Promise<{ port: number; tunnels: string[]; close(): void }> {
  const tunnels: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.once('data', (head) => {
      const m = /^CONNECT (\S+):(\d+) HTTP\/1\.[01]\r\n/.exec(head.toString('latin1'));
      if (!m) {
        client.end('HTTP/1.1 405 Method Not Allowed\r\n\r\n');
        return;
      }
      tunnels.push(`${m[1]}:${m[2]}`);
      const upstream = net.connect(Number(m[2]), m[1], () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.pipe(client);
        client.pipe(upstream);
      });
      sockets.add(upstream);
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      resolve({
        port,
        tunnels,
        close: () => {
          for (const s of sockets) s.destroy();
          server.close();
        },
      });
    });
  });
}

describe('live mode through a proxy', () => {
  let cp: ControlPlane;
  let proxy: Awaited<ReturnType<typeof connectProxy>>;

  before(async () => {
    cp = await startCluster('proxy');
    proxy = await connectProxy();
    await create(cp, [namespaceObject('px'), nodeObject('px-node-1'), daemonSetObject('px', 'agent')]);
    await waitForDaemonPods(cp, 'px', 'agent', 1);
  });
  after(async () => {
    proxy?.close();
    await stopCluster(cp);
  });

  it('sends every request through the kubeconfig proxy-url', async () => {
    const kubeconfig = kubeconfigVariant(cp, 'proxy', (text) =>
      text.replace(/^(\s*)server: (\S+)$/m, `$1server: $2\n$1proxy-url: http://127.0.0.1:${proxy.port}`),
    );
    const r = await spawnCli(['scan', '-n', 'px', '-o', 'json'], { KUBECONFIG: kubeconfig });
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    assert.equal(JSON.parse(r.stdout).daemonSets[0].name, 'agent');
    const server = new URL(cp.server);
    assert.ok(proxy.tunnels.length >= 1, 'the proxy opened a tunnel');
    assert.ok(
      proxy.tunnels.every((t) => t === `${server.hostname}:${server.port}`),
      proxy.tunnels.join(', '),
    );
  });
});
