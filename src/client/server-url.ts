/**
 * The API server's URL: read from a kubeconfig's `server` as client-go reads it
 * (rest/url_utils.go#DefaultServerURL), and written in messages with its password masked (Go's
 * net/url URL.Redacted).
 */

/** A server URL for messages: the password of any user info masked, as Go's url.Redacted does. */
export function redactedUrl(server: string): string {
  let url: URL | undefined;
  try {
    url = new URL(server);
  } catch {
    url = undefined;
  }
  if (url?.password) {
    url.password = 'xxxxx';
    return server.endsWith('/') ? url.href : url.href.replace(/\/$/, '');
  }
  if (url?.host) return server;
  // Not a URL with a host ("admin:pw@host" reads as scheme "admin"): mask from the first colon
  // after any "//" to the last "@", to be safe.
  const at = server.lastIndexOf('@');
  const start = server.includes('//') ? server.indexOf('//') + 2 : 0;
  const colon = server.indexOf(':', start);
  return colon >= 0 && colon < at ? `${server.slice(0, colon)}:xxxxx${server.slice(at)}` : server;
}

/**
 * The API server URL, as client-go's rest.DefaultServerURL reads `server`: a value without a
 * scheme and host gets https:// when TLS is configured (a CA, a client certificate or
 * insecure-skip-tls-verify), else http://. Throws a reason when it is not an http(s) URL.
 * kubernetes v1.35 staging/src/k8s.io/client-go/rest/url_utils.go#DefaultServerURL
 */
export function serverUrl(server: string, defaultTLS: boolean): URL {
  let url: URL | undefined;
  try {
    url = new URL(server);
  } catch {
    url = undefined;
  }
  if (!server) throw new Error('not set (e.g. https://host:6443)');
  if (!url || !url.host || !/^https?:$/.test(url.protocol)) {
    if (url && url.host) throw new Error(`scheme ${url.protocol.slice(0, -1)} is not http or https`);
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(server)) throw new Error('not a URL (e.g. https://host:6443)');
    try {
      url = new URL(`${defaultTLS ? 'https' : 'http'}://${server}`);
    } catch {
      throw new Error('not a URL (e.g. https://host:6443)');
    }
    if (url.pathname !== '/') throw new Error('not a URL or a host:port pair (e.g. https://host:6443)');
  }
  if (!url.hostname) throw new Error('not a URL: no host (e.g. https://host:6443)');
  return url;
}
