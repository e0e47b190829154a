import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bundleWorkflowCode } from '@temporalio/worker';

const SOURCE_DIR = join(__dirname, '..', '..', 'workflows');
/** Its own files: beside it, in a folder of its own (`./agent-run/…`), or beside that folder (`../announce`). */
const ALLOWED = [/^@temporalio\/workflow$/, /^@temporalio\/common$/, /^@pylon\/contracts$/, /^\.\/[\w.-]+(\/[\w.-]+)?$/, /^\.\.\/[\w.-]+$/];

/** Workflow code must stay deterministic: only the workflow SDK, the shared contracts and its own files. */
describe('workflow code', () => {
  const sources = readdirSync(SOURCE_DIR, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));

  it('imports nothing but @temporalio/workflow, @pylon/contracts and its own files', () => {
    assert.ok(sources.length > 0);
    for (const file of sources) {
      const text = readFileSync(join(SOURCE_DIR, file), 'utf8');
      for (const [, specifier] of text.matchAll(/(?:import|export)[^'"]*from\s+['"]([^'"]+)['"]/g)) {
        assert.ok(
          ALLOWED.some((pattern) => pattern.test(specifier!)),
          `${file} imports ${specifier}`,
        );
      }
      assert.doesNotMatch(text, /\brequire\(/, `${file} uses require`);
    }
  });

  it('bundles for the Temporal sandbox', async () => {
    const { code } = await bundleWorkflowCode({
      workflowsPath: require.resolve('./index'),
      workflowInterceptorModules: [require.resolve('./outcome-interceptors')],
      logger: { log() {}, info() {}, warn() {}, error() {}, debug() {}, trace() {} } as never,
    });
    assert.ok(code.includes('agentRunWorkflow'));
    assert.ok(code.includes('workflowOutcome'), 'the outcome interceptor is bundled');
  });
});
