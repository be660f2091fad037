/**
 * The demo dump with text that would run script if a page let it reach the HTML parser (and the
 * terminal escapes of test/cli/hostile-output.test.ts), in every field the report shows: event
 * messages, node-condition and container messages, change-cause annotations, images, the node
 * pool label (the matrix's group), and the names of a node, a pod and a DaemonSet (a dump is not
 * validated by an API server). Every script payload sets `window.__pwned`, which the browser test
 * checks is never set.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';

export const HTML_PAYLOADS: Record<string, string> = {
  'a script element': '<script>window.__pwned=1</script>',
  'the end of the data element, then a script': '</script><script>window.__pwned=2</script>',
  'an upper-case end tag': '</SCRIPT ><script>window.__pwned=3</script>',
  'an attribute break-out with an event handler': '"><img src=x onerror="window.__pwned=4">',
  'a single-quoted break-out': "'><svg onload='window.__pwned=5'>",
  'a comment opener': '<!--<script>window.__pwned=6</script>-->',
  'a javascript: URL': 'javascript:window.__pwned=7',
  'an entity': '&lt;script&gt;window.__pwned=8&lt;/script&gt; &#x202e;',
  'terminal escapes': '\u001b]0;owned\u0007\u001b[2J\u009b2J',
  'a bidi override': '\u202eevil',
  'the line separators': 'a\u2028b\u2029c',
};
export const HOSTILE_TEXT = Object.values(HTML_PAYLOADS).join(' ');

/** The names given to the hostile node, pod and DaemonSet. */
export const HOSTILE_NODE = `evil-node<img src=x onerror="window.__pwned=9">\u202e`;
export const HOSTILE_DS = `evil-ds</script><script>window.__pwned=10</script>`;
export const HOSTILE_POD = `fluent-bit-"><svg onload=window.__pwned=11>`;

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The hostile dump as one JSON List (the report reads it from a file or stdin). */
export function hostileDump(demo = 'fixtures/demo'): string {
  const items: Obj[] = [];
  for (const file of readdirSync(demo)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    for (const doc of yaml.loadAll(readFileSync(join(demo, file), 'utf8')) as Obj[])
      items.push(...(doc['items'] ?? [doc]));
  }
  for (const o of items) {
    if (o['kind'] === 'Event') o['message'] = `${o['message'] ?? ''} ${HOSTILE_TEXT}`;
    if (o['kind'] === 'Node') {
      for (const c of o['status']?.conditions ?? []) c.message = `${c.message ?? ''} ${HOSTILE_TEXT}`;
      // The matrix groups nodes by this label: its value is a pool's heading.
      if (o['metadata'].name === 'worker-6')
        o['metadata'].labels['node.kubernetes.io/instance-type'] =
          `m5${HTML_PAYLOADS['the end of the data element, then a script']}`;
    }
    if (o['kind'] === 'Pod') {
      for (const s of [...(o['status']?.containerStatuses ?? []), ...(o['status']?.initContainerStatuses ?? [])]) {
        for (const st of [s.state, s.lastState]) {
          if (st?.waiting) st.waiting.message = `${st.waiting.message ?? ''} ${HOSTILE_TEXT}`;
          if (st?.terminated) st.terminated.message = `${st.terminated.message ?? ''} ${HOSTILE_TEXT}`;
        }
      }
    }
    if (o['kind'] === 'ControllerRevision') {
      o['metadata'].annotations = {
        ...o['metadata'].annotations,
        'kubernetes.io/change-cause': `kubectl set image ${HOSTILE_TEXT}`,
      };
      for (const c of o['data']?.spec?.template?.spec?.containers ?? [])
        c.image = `${c.image}${HTML_PAYLOADS['a script element']}`;
    }
    if (o['kind'] === 'DaemonSet' && o['metadata'].name === 'calico-node') {
      for (const c of o['spec'].template.spec.containers)
        c.image = `${c.image}${HTML_PAYLOADS['an attribute break-out with an event handler']}`;
    }
  }
  // A pod's name is in its cell's diagnosis and in the text the matrix is searched by.
  const pod = items.find(
    (o) => o['kind'] === 'Pod' && o['spec']?.nodeName === 'worker-1' && o['metadata'].name.startsWith('fluent-bit-'),
  )!;
  pod.metadata.name = HOSTILE_POD;
  const node = structuredClone(items.find((o) => o['kind'] === 'Node' && o['metadata'].name === 'worker-2')!);
  node.metadata.name = HOSTILE_NODE;
  node.metadata.uid = 'uid-evil-node';
  node.metadata.labels['kubernetes.io/hostname'] = HOSTILE_NODE;
  items.push(node);
  const ds = structuredClone(items.find((o) => o['kind'] === 'DaemonSet' && o['metadata'].name === 'node-exporter')!);
  ds.metadata.name = HOSTILE_DS;
  ds.metadata.uid = 'uid-evil-ds';
  items.push(ds);
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
}
