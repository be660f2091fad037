// The runtime shape check (src/load/shape.ts) and the TypeScript types the analyses read
// (src/model/k8s-types.ts) describe the same fields: every field the shape checks is a field of the
// type, of the same kind (string, boolean, number, list, map, object), and every field of the type
// is checked by the shape, field by field, for every kind a snapshot holds. The types are read with
// the TypeScript compiler's own checker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import ts from 'typescript';
import { KIND_SHAPES, type Fields, type Shape } from '../../src/load/shape-fields.js';

const TYPES = 'src/model/k8s-types.ts';

/** The TypeScript type of each kind's objects (the kind's name unless told here). */
const TYPE_OF_KIND: Record<string, string> = {
  Event: 'KubeEvent',
  ValidatingWebhookConfiguration: 'WebhookConfiguration',
  MutatingWebhookConfiguration: 'WebhookConfiguration',
  CSIDriver: 'KubeObject',
};

/** The fields every object has (shape-fields.ts COMMON), as KubeObject types them. */
const COMMON_FIELDS = ['apiVersion', 'kind', 'metadata'];

const program = ts.createProgram([TYPES], { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, types: [] });
const checker = program.getTypeChecker();
const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(TYPES)!)!);

function declared(name: string): ts.Type {
  const symbol = exported.find((s) => s.name === name);
  assert.ok(symbol, `${TYPES} exports no ${name}`);
  return checker.getDeclaredTypeOfSymbol(symbol);
}

/** The members of a type, a union's each. */
function members(type: ts.Type): ts.Type[] {
  return type.isUnion() ? type.types : [type];
}

const is = (type: ts.Type, flags: ts.TypeFlags): boolean => members(type).every((m) => (m.flags & flags) !== 0);
const has = (type: ts.Type, flags: ts.TypeFlags): boolean => members(type).some((m) => (m.flags & flags) !== 0);

/** Whether a TypeScript type (null and undefined taken off) holds what a scalar shape says. */
function scalarAgrees(shape: Exclude<Shape, object>, full: ts.Type): boolean {
  const type = checker.getNonNullableType(full);
  switch (shape) {
    case 'string':
      return is(type, ts.TypeFlags.StringLike);
    case 'stringOrNull':
      return is(type, ts.TypeFlags.StringLike) && has(full, ts.TypeFlags.Null);
    case 'boolean':
      return is(type, ts.TypeFlags.BooleanLike);
    case 'int32':
    case 'int64':
      return is(type, ts.TypeFlags.NumberLike);
    case 'quantity':
    case 'intOrString':
      return is(type, ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike) && has(type, ts.TypeFlags.StringLike);
    case 'object':
      return is(type, ts.TypeFlags.Object | ts.TypeFlags.NonPrimitive | ts.TypeFlags.Unknown);
  }
}

/** The disagreements between a shape and a type, each with its path. */
function disagreements(shape: Shape, full: ts.Type, path: string, out: string[]): void {
  const type = checker.getNonNullableType(full);
  const text = () => checker.typeToString(full);
  if (typeof shape === 'string') {
    if (!scalarAgrees(shape, full)) out.push(`${path}: the shape says ${shape}, the type ${text()}`);
    return;
  }
  if ('list' in shape) {
    if (!checker.isArrayType(type)) return void out.push(`${path}: the shape says a list, the type ${text()}`);
    disagreements(shape.list, checker.getTypeArguments(type as ts.TypeReference)[0]!, `${path}[]`, out);
    return;
  }
  if ('map' in shape) {
    const index = checker.getIndexInfoOfType(type, ts.IndexKind.String);
    if (!index) return void out.push(`${path}: the shape says a map, the type ${text()}`);
    disagreements(shape.map, index.type, `${path}{}`, out);
    return;
  }
  fieldsDisagree(shape.fields, type, path, out);
}

function fieldsDisagree(fields: Fields, type: ts.Type, path: string, out: string[], skip: string[] = []): void {
  if (!is(type, ts.TypeFlags.Object) && !type.isIntersection())
    return void out.push(`${path}: the shape says a map of fields, the type ${checker.typeToString(type)}`);
  for (const [name, shape] of Object.entries(fields)) {
    const prop = checker.getPropertyOfType(type, name);
    if (!prop) out.push(`${path}.${name}: checked by the shape, not in the type`);
    else disagreements(shape, checker.getTypeOfSymbol(prop), `${path}.${name}`, out);
  }
  for (const prop of checker.getPropertiesOfType(type)) {
    if (!(prop.name in fields) && !skip.includes(prop.name))
      out.push(`${path}.${prop.name}: in the type, not checked by the shape`);
  }
}

test('shape and types: every kind the shape checks has its type in k8s-types.ts, and they agree field by field', () => {
  const out: string[] = [];
  for (const [kind, fields] of Object.entries(KIND_SHAPES)) {
    const type = declared(TYPE_OF_KIND[kind] ?? kind);
    // apiVersion, kind and metadata are every object's (KubeObject), checked by the common shape.
    fieldsDisagree(fields, type, kind, out, COMMON_FIELDS);
  }
  assert.deepStrictEqual(out, []);
});

test('shape and types: the check can fail (a shape that says otherwise is caught)', () => {
  const out: string[] = [];
  fieldsDisagree(
    { spec: { fields: { updateStrategy: 'boolean', notAField: 'string' } } },
    declared('DaemonSet'),
    'DaemonSet',
    out,
    COMMON_FIELDS,
  );
  assert.ok(
    out.some((l) => l.startsWith('DaemonSet.spec.updateStrategy: the shape says boolean')),
    out.join('\n'),
  );
  assert.ok(
    out.some((l) => l === 'DaemonSet.spec.notAField: checked by the shape, not in the type'),
    out.join('\n'),
  );
  assert.ok(
    out.some((l) => l === 'DaemonSet.status: in the type, not checked by the shape'),
    out.join('\n'),
  );
});
