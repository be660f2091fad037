/** Names from flags and arguments, checked as the API server checks them. */
import { InputError } from '../model/errors.js';
import { isDNS1123Label } from '../k8s/names.js';

/** The one error line for a name the API server would reject. */
export function invalidName(what: string, value: string, kind: string, errs: string[]): InputError {
  return new InputError(`${what}: "${value}" is not a valid ${kind} name: ${errs.join('; ')}`);
}

/** Checks a namespace from a flag or an argument, as the API server would (a DNS-1123 label). */
export function checkNamespace(what: string, ns: string): void {
  const errs = isDNS1123Label(ns);
  if (errs.length) throw invalidName(what, ns, 'namespace', errs);
}
