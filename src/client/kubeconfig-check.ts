/**
 * The checks of the chosen context's cluster and user before any request, as client-go's
 * clientcmd validation and rest.Config do them (tools/clientcmd/validation.go#validateClusterInfo,
 * validateAuthInfo): the server is a URL, certificates and keys are PEM and belong together,
 * referenced files exist, and `tokenFile` (which client-node ignores, reading a non-standard
 * `token-file`) is read. A wrong field is an input error (exit 2) naming the kubeconfig file, the
 * context, the cluster or user, and the field, or the flag that set it; values are never echoed
 * except a server URL, with its password masked.
 */
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import type { Cluster, User } from '@kubernetes/client-node';
import { InputError } from '../model/errors.js';
import type { LoadedKubeconfig } from './kubeconfig.js';
import { redactedUrl, serverUrl } from './server-url.js';

/** Names a kubeconfig entry in messages: file, context, and the cluster or user. */
function where(loaded: LoadedKubeconfig, section: 'clusters' | 'users', name: string, context: string): string {
  const file = loaded.origin(section, name)?.file;
  return `kubeconfig${file ? ` ${file}` : ''}: context "${context}", ${section === 'clusters' ? 'cluster' : 'user'} "${name}"`;
}

/** Reads a certificate or key given as a file or as base64 data; a problem is thrown as a reason. */
function pemOf(file: string | undefined | null, data: string | undefined | null, field: string): string | undefined {
  if (file) {
    try {
      return readFileSync(file, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new Error(`${field} ${file}: ${code === 'ENOENT' ? 'no such file' : (code ?? 'cannot read')}`, {
        cause: err,
      });
    }
  }
  return data ? Buffer.from(data, 'base64').toString('utf8') : undefined;
}

function certificate(pem: string, field: string): X509Certificate {
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new Error(`${field}: not a PEM certificate`);
  try {
    return new X509Certificate(pem);
  } catch {
    throw new Error(`${field}: the PEM certificate cannot be parsed`);
  }
}

function privateKey(pem: string, field: string): KeyObject {
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem)) throw new Error(`${field}: not a PEM private key`);
  try {
    return createPrivateKey(pem);
  } catch {
    throw new Error(`${field}: the PEM private key cannot be parsed`);
  }
}

/**
 * How messages name a field: `--client-key` when a flag set it, else the kubeconfig field
 * (`client-key`, `client-key-data`). A message that starts with a flag is not prefixed with the
 * kubeconfig entry (checkEntries).
 */
export type FieldLabels = Partial<
  Record<'certificate-authority' | 'server' | 'client-certificate' | 'client-key', string>
>;

/** Checks the cluster entry: server URL and certificate authority. */
function checkCluster(cluster: Cluster, user: User | null, labels: FieldLabels): URL {
  if (cluster.caFile || cluster.caData) {
    const field = cluster.caFile
      ? (labels['certificate-authority'] ?? 'certificate-authority')
      : 'certificate-authority-data';
    certificate(pemOf(cluster.caFile, cluster.caData, field)!, field);
  }
  const tls = Boolean(cluster.caFile || cluster.caData || cluster.skipTLSVerify || user?.certFile || user?.certData);
  try {
    return serverUrl(cluster.server, tls);
  } catch (err) {
    throw new Error(`${labels.server ?? 'server'} "${redactedUrl(cluster.server)}": ${(err as Error).message}`, {
      cause: err,
    });
  }
}

/** Checks the user entry's client certificate and key: both PEM, both given, and a pair. */
function checkClientCertificate(user: User, labels: FieldLabels): void {
  const certField = user.certFile ? (labels['client-certificate'] ?? 'client-certificate') : 'client-certificate-data';
  const keyField = user.keyFile ? (labels['client-key'] ?? 'client-key') : 'client-key-data';
  const certPem = pemOf(user.certFile, user.certData, certField);
  const keyPem = pemOf(user.keyFile, user.keyData, keyField);
  if (!certPem && !keyPem) return;
  // A flag names its missing partner flag, and what the user lacks too.
  const missing = (field: string, partner: string) =>
    field.startsWith('--')
      ? `${field} is given without --${partner} (and user "${user.name}" has no ${partner} or ${partner}-data)`
      : `${field} is set but neither ${partner} nor ${partner}-data`;
  if (!keyPem) throw new Error(missing(certField, 'client-key'));
  if (!certPem) throw new Error(missing(keyField, 'client-certificate'));
  const cert = certificate(certPem, certField);
  const key = privateKey(keyPem, keyField);
  if (!cert.checkPrivateKey(key))
    throw new Error(`${certField} and ${keyField} do not match: the key is not the certificate's`);
}

/**
 * The bearer token of a user's `tokenFile` (relative to its kubeconfig, as clientcmd resolves
 * paths), or undefined when it has none. A token given inline wins, as in client-go.
 */
function tokenFromFile(loaded: LoadedKubeconfig, user: User): string | undefined {
  const origin = loaded.origin('users', user.name);
  const tokenFile = origin?.raw['tokenFile'];
  if (tokenFile === undefined || tokenFile === '' || user.token) return undefined;
  if (typeof tokenFile !== 'string') throw new Error('tokenFile: not a file name');
  const file = isAbsolute(tokenFile) ? tokenFile : join(dirname(origin!.file), tokenFile);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(`tokenFile ${file}: ${code === 'ENOENT' ? 'no such file' : (code ?? 'cannot read')}`, {
      cause: err,
    });
  }
}

/** What the checks yield: the server URL to use and a bearer token read from `tokenFile`. */
export interface CheckedEntries {
  server: URL;
  fileToken?: string;
}

/**
 * Checks the current context's cluster and user before any request; a wrong field is an
 * InputError (exit 2) naming the file, context, entry and field, or the flag that set it.
 */
export function checkEntries(
  loaded: LoadedKubeconfig,
  context: string,
  cluster: Cluster,
  user: User | null,
  labels: FieldLabels = {},
): CheckedEntries {
  const fail = (section: 'clusters' | 'users', name: string, err: unknown) => {
    const message = (err as Error).message;
    return new InputError(message.startsWith('--') ? message : `${where(loaded, section, name, context)}: ${message}`);
  };
  let server: URL;
  try {
    server = checkCluster(cluster, user, labels);
  } catch (err) {
    throw fail('clusters', cluster.name, err);
  }
  if (!user) return { server };
  try {
    checkClientCertificate(user, labels);
    const fileToken = tokenFromFile(loaded, user);
    return fileToken === undefined ? { server } : { server, fileToken };
  } catch (err) {
    throw fail('users', user.name, err);
  }
}
