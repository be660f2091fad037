// Local ESLint rules for docs/design.md §1.3 (import layering): `layering/allowed-imports`
// checks each import of a file under src/ against the folder's row of the table, and
// `layering/no-cycle` reports an import that closes a cycle between modules of src/.
//
// The cycle check builds the import graph of src/ once per lint run from the files on disk
// (TypeScript's parser, no type checking), finds the strongly connected components, and reports
// every import whose two ends lie in one component, naming one cycle through it. Type-only imports
// (`import type`, `import { type X }`, `export type … from`) are not edges: tsc erases them, so
// they cannot order module initialisation; the folder table above still applies to them.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** docs/design.md §1.3: the folders each folder of src/ may import (besides itself). */
export const LAYERS = {
  cli: ['api', 'load', 'client', 'analyze', 'lint', 'render', 'k8s', 'model'],
  api: ['load', 'client', 'analyze', 'lint', 'render', 'k8s', 'model'],
  load: ['model', 'k8s', 'client'],
  client: ['model'],
  analyze: ['k8s', 'model'],
  lint: ['k8s', 'model'],
  render: ['model'],
  k8s: ['model'],
  model: [],
};

const SOURCE_EXTENSIONS = ['.ts', '.mts', '.tsx'];

/** The src/ folder of `file` relative to `srcDir`, or undefined when it is not under src/. */
function layerOf(srcDir, file) {
  const rel = path.relative(srcDir, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const [first, ...rest] = rel.split(path.sep);
  return rest.length === 0 ? '' : first;
}

/** The source file a relative specifier names (`./x.js` is written for `./x.ts`). */
function resolveSpecifier(fromFile, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const target = path.resolve(path.dirname(fromFile), specifier);
  const ext = path.extname(target);
  const stem = ext === '.js' || ext === '.mjs' ? target.slice(0, -ext.length) : target;
  for (const candidate of [...SOURCE_EXTENSIONS.map((e) => stem + e), target]) {
    if (existsSync(candidate)) return candidate;
  }
  return target;
}

/** The folder holding src/ for `file` (the nearest ancestor with a src/ child on the path). */
function srcDirOf(file) {
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf('src');
  return at < 0 ? undefined : parts.slice(0, at + 1).join(path.sep);
}

/** Every import specifier of a node that has one: import, export … from, import(), import type. */
function specifierOf(node) {
  const source = node.source ?? node.argument;
  if (source && source.type === 'Literal' && typeof source.value === 'string') return source;
  if (source && source.type === 'TSLiteralType' && typeof source.literal?.value === 'string') {
    return source.literal;
  }
  return undefined;
}

function visitImports(check) {
  const visit = (node) => {
    const source = specifierOf(node);
    if (source) check(node, source);
  };
  return {
    ImportDeclaration: visit,
    ExportNamedDeclaration: visit,
    ExportAllDeclaration: visit,
    ImportExpression: visit,
    TSImportType: visit,
  };
}

const allowedImports = {
  meta: {
    type: 'problem',
    docs: { description: 'A folder of src/ imports only the folders in its row of docs/design.md §1.3' },
    schema: [],
    messages: {
      forbidden: 'src/{{from}}/ may not import src/{{to}}/ (docs/design.md §1.3: src/{{from}}/ may import {{allowed}})',
      outside: 'src/{{from}}/ may not import {{target}}: code under src/ imports only src/ and packages',
      unknown: 'src/{{folder}} is not a folder of the layering table in docs/design.md §1.3',
    },
  },
  create(context) {
    const file = context.filename;
    const srcDir = srcDirOf(file);
    if (!srcDir) return {};
    const from = layerOf(srcDir, file);
    if (from === undefined) return {};
    if (!(from in LAYERS)) {
      return {
        Program(node) {
          context.report({ node, messageId: 'unknown', data: { folder: from || path.basename(file) } });
        },
      };
    }
    const allowed = new Set([from, ...LAYERS[from]]);
    return visitImports((node, source) => {
      const target = resolveSpecifier(file, source.value);
      if (!target) return;
      const to = layerOf(srcDir, target);
      if (to === undefined) {
        context.report({
          node: source,
          messageId: 'outside',
          data: { from, target: path.relative(path.dirname(srcDir), target) },
        });
      } else if (!allowed.has(to)) {
        const names = LAYERS[from].map((f) => `src/${f}/`).join(', ') || 'nothing';
        context.report({ node: source, messageId: 'forbidden', data: { from, to, allowed: names } });
      }
    });
  },
};

/** Whether an ESTree import or export node is erased by tsc (type-only). */
function isTypeOnlyNode(node) {
  if (node.type === 'TSImportType') return true;
  if (node.importKind === 'type' || node.exportKind === 'type') return true;
  const specifiers = node.specifiers ?? [];
  if (node.type === 'ImportDeclaration') {
    return specifiers.length > 0 && specifiers.every((s) => s.type === 'ImportSpecifier' && s.importKind === 'type');
  }
  if (node.type === 'ExportNamedDeclaration') {
    return specifiers.length > 0 && specifiers.every((s) => s.exportKind === 'type');
  }
  return false;
}

/** The specifiers a TypeScript source imports at run time (type-only imports left out). */
function runtimeImports(text, fileName) {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const out = [];
  const typeOnlyNamed = (elements) => elements.length > 0 && elements.every((e) => e.isTypeOnly);
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const clause = st.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (!clause.name &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            typeOnlyNamed(clause.namedBindings.elements)));
      if (!typeOnly) out.push(st.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(st) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)) {
      const typeOnly =
        st.isTypeOnly ||
        (st.exportClause !== undefined &&
          ts.isNamedExports(st.exportClause) &&
          typeOnlyNamed(st.exportClause.elements));
      if (!typeOnly) out.push(st.moduleSpecifier.text);
    }
  }
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) out.push(arg.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** All .ts files under `dir`. */
function sourceFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (SOURCE_EXTENSIONS.includes(path.extname(entry.name))) out.push(full);
  }
  return out;
}

/** The import graph of src/: file → files it imports (relative imports that exist only). */
function importGraph(srcDir) {
  const graph = new Map();
  for (const file of sourceFiles(srcDir)) {
    const targets = new Set();
    for (const fileName of runtimeImports(readFileSync(file, 'utf8'), file)) {
      const target = resolveSpecifier(file, fileName);
      if (target && existsSync(target) && layerOf(srcDir, target) !== undefined) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Tarjan's strongly connected components: file → component id. */
function components(graph) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const component = new Map();
  let next = 0;
  const connect = (v) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v) === index.get(v)) {
      for (;;) {
        const w = stack.pop();
        onStack.delete(w);
        component.set(w, v);
        if (w === v) break;
      }
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return component;
}

/** The shortest import path from `start` to `goal` (breadth first), as a list of files. */
function shortestPath(graph, start, goal) {
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift();
    if (v === goal) break;
    for (const w of graph.get(v) ?? []) {
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  if (!previous.has(goal)) return undefined;
  const out = [];
  for (let v = goal; v !== undefined; v = previous.get(v)) out.unshift(v);
  return out;
}

const graphs = new Map();
function analysisOf(srcDir) {
  let found = graphs.get(srcDir);
  if (!found) {
    const graph = importGraph(srcDir);
    found = { graph, component: components(graph) };
    graphs.set(srcDir, found);
  }
  return found;
}

const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'No import cycle between modules of src/ (docs/design.md §1.3)' },
    schema: [],
    messages: { cycle: 'import cycle: {{cycle}}' },
  },
  create(context) {
    const file = context.filename;
    const srcDir = srcDirOf(file);
    if (!srcDir || layerOf(srcDir, file) === undefined || !existsSync(srcDir)) return {};
    const { graph, component } = analysisOf(srcDir);
    if (!component.has(file)) return {};
    return visitImports((node, source) => {
      if (isTypeOnlyNode(node)) return;
      const target = resolveSpecifier(file, source.value);
      if (!target || target === file || component.get(target) !== component.get(file)) return;
      const back = shortestPath(graph, target, file) ?? [target];
      const cycle = [file, ...back].map((f) => path.relative(path.dirname(srcDir), f)).join(' → ');
      context.report({ node: source, messageId: 'cycle', data: { cycle } });
    });
  },
};

export default {
  meta: { name: 'layering' },
  rules: { 'allowed-imports': allowedImports, 'no-cycle': noCycle },
};
