/**
 * `lint -o sarif` validated offline against the vendored OASIS SARIF 2.1.0 JSON schema
 * (test/schemas/sarif-schema-2.1.0.json), plus the mappings code-scanning UIs rely on.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv } from 'ajv';
import formatsModule from 'ajv-formats';
import { loadFiles } from '../../../src/load/files.js';
import { emptySnapshot } from '../../../src/model/snapshot.js';
import { lint } from '../../../src/lint/lint.js';
import { RULES } from '../../../src/lint/registry.js';
import { artifactUri, sarifLog } from '../../../src/render/sarif.js';
import { daemonSetsInScope } from '../../../src/cli/scope.js';
import { runCli } from '../../harness.js';

// ajv-formats is CommonJS: under NodeNext its default import is the module object, whose `default` is the plugin.
const addFormats = formatsModule.default;

function validator() {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync('test/schemas/sarif-schema-2.1.0.json', 'utf8')) as object);
}

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  locations: {
    physicalLocation?: { artifactLocation: { uri: string; uriBaseId?: string }; region: { startLine: number } };
  }[];
}
interface SarifRun {
  tool: {
    driver: {
      name: string;
      rules: {
        id: string;
        helpUri?: string;
        help: { text: string; markdown: string };
        defaultConfiguration: { level: string };
      }[];
    };
  };
  results: SarifResult[];
  invocations: { toolExecutionNotifications: { message: { text: string } }[] }[];
}

describe('SARIF output', () => {
  const validate = validator();

  it("the fixtures' findings validate against the SARIF 2.1.0 schema, with rule metadata and file/line locations", async () => {
    const snapshot = await loadFiles(['fixtures/manifests/agents', 'fixtures/manifests/bad'], async () => '');
    const report = lint(snapshot, daemonSetsInScope(snapshot, { allNamespaces: false }));
    const log = sarifLog(
      report,
      RULES.map((r) => r.meta),
      { toolVersion: '0.1.0', cwd: resolve('.') },
    );
    assert.ok(validate(log), JSON.stringify(validate.errors, null, 2));

    const run = (log['runs'] as SarifRun[])[0]!;
    assert.equal(run.tool.driver.name, 'ds-doctor');
    assert.deepEqual(
      run.tool.driver.rules.map((r) => r.id),
      RULES.map((r) => r.meta.id),
    );
    for (const r of run.tool.driver.rules) {
      assert.equal(r.helpUri, undefined, 'no made-up documentation URL');
      assert.match(r.help.markdown, /\*\*How to fix:\*\*/);
    }
    assert.equal(run.results.length, report.findings.length);
    const levels = new Set(run.results.map((r) => `${report.findings[run.results.indexOf(r)]!.severity}->${r.level}`));
    assert.deepEqual([...levels].sort(), ['error->error', 'info->note', 'warning->warning']);
    for (const r of run.results) {
      assert.equal(run.tool.driver.rules[r.ruleIndex]!.id, r.ruleId);
      const physical = r.locations[0]!.physicalLocation!;
      assert.match(physical.artifactLocation.uri, /^fixtures\/manifests\/(agents|bad)\/[\w-]+\.yaml$/);
      assert.equal(physical.artifactLocation.uriBaseId, '%SRCROOT%');
      assert.ok(physical.region.startLine >= 1);
    }
    assert.ok(
      run.invocations[0]!.toolExecutionNotifications.some((n) => /rule pdb-missing not checked/.test(n.message.text)),
    );
  });

  it('the schema is strict enough to catch a broken log', () => {
    assert.equal(validate({ version: '2.1.0', runs: [{ tool: { driver: {} } }] }), false);
    assert.equal(
      validate({
        version: '2.1.0',
        runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, level: 'fatal' }] }],
      }),
      false,
    );
    assert.equal(
      validate({
        version: '2.1.0',
        runs: [{ tool: { driver: { name: 'x', rules: [{ id: 'r', helpUri: 'not a uri' }] } } }],
      }),
      false,
    );
  });

  it('live input (no file) and stdin validate too: logical locations only', () => {
    const ds = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'x', namespace: 'y' },
      spec: { selector: {}, template: {} },
    };
    const report = lint({ ...emptySnapshot('live'), daemonSets: [ds] }, [ds]);
    report.findings[0]!.location = { file: '<stdin>', line: 1 };
    const log = sarifLog(
      report,
      RULES.map((r) => r.meta),
      { toolVersion: '0.1.0', cwd: resolve('.') },
    );
    assert.ok(validate(log), JSON.stringify(validate.errors, null, 2));
    const results = (log['runs'] as SarifRun[])[0]!.results;
    assert.ok(results.length > 0);
    assert.ok(results.every((r) => r.locations[0]!.physicalLocation === undefined));
  });

  it('ds-doctor lint -o sarif prints a valid log and exits by --fail-on', async () => {
    const bad = await runCli(['lint', '-f', 'fixtures/manifests/bad', '-o', 'sarif']);
    assert.equal(bad.code, 1);
    assert.equal(bad.stderr, '');
    assert.ok(validate(JSON.parse(bad.stdout)), JSON.stringify(validate.errors));
    const good = await runCli(['lint', '-f', 'fixtures/manifests/agents/fluent-bit.yaml', '-o', 'sarif']);
    assert.equal(good.code, 0);
    assert.ok(validate(JSON.parse(good.stdout)));
  });

  it('artifact URIs are relative to the working directory, absolute file URIs outside it', () => {
    assert.equal(artifactUri('fixtures/manifests/a b.yaml', '/repo'), 'fixtures/manifests/a%20b.yaml');
    assert.equal(artifactUri('./x/../y.yaml', '/repo'), 'y.yaml');
    assert.equal(artifactUri('/repo/deploy/ds.yaml', '/repo'), 'deploy/ds.yaml');
    assert.equal(artifactUri('/elsewhere/ds.yaml', '/repo'), 'file:///elsewhere/ds.yaml');
    assert.equal(artifactUri('<stdin>', '/repo'), undefined);
  });
});
