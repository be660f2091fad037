/**
 * The proxy for an API server URL from the environment, as Go's `http.ProxyFromEnvironment`
 * (golang.org/x/net/http/httpproxy) chooses it for kubectl: HTTPS_PROXY for https, HTTP_PROXY for
 * http (upper or lower case), unless NO_PROXY matches the host ("*", a domain and its subdomains,
 * a leading-dot suffix, an IP, or an IPv4 CIDR; an optional :port must match too). Loopback hosts
 * never use a proxy.
 */

function ipv4ToInt(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return undefined;
  return parts.reduce((n, p) => ((n << 8) | Number(p)) >>> 0, 0);
}

function inCidr(host: string, cidr: string): boolean {
  const [net, bitsText] = cidr.split('/');
  const ip = ipv4ToInt(host);
  const base = ipv4ToInt(net ?? '');
  const bits = Number(bitsText);
  if (ip === undefined || base === undefined || !Number.isInteger(bits) || bits < 0 || bits > 32) return false;
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return (ip & mask) === (base & mask);
}

/** True when a NO_PROXY entry excludes this host (and port). */
function excluded(host: string, port: string, noProxy: string): boolean {
  for (const raw of noProxy
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean)) {
    if (raw === '*') return true;
    if (raw.includes('/')) {
      if (inCidr(host, raw)) return true;
      continue;
    }
    const m = /^(.*?)(?::(\d+))?$/.exec(raw)!;
    const name = m[1]!;
    if (m[2] && m[2] !== port) continue;
    if (
      name.startsWith('.') ? host.endsWith(name) || host === name.slice(1) : host === name || host.endsWith(`.${name}`)
    )
      return true;
  }
  return false;
}

/** The proxy URL to use for `server`, or undefined for a direct connection. */
export function proxyFor(server: string, env: Record<string, string | undefined>): string | undefined {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    return undefined;
  }
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host === '::1' || host.startsWith('127.')) return undefined;
  const get = (name: string) => env[name] || env[name.toLowerCase()] || undefined;
  const proxy = url.protocol === 'https:' ? get('HTTPS_PROXY') : get('HTTP_PROXY');
  if (!proxy) return undefined;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  if (excluded(host, port, get('NO_PROXY') ?? '')) return undefined;
  return proxy;
}
