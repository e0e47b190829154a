import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bundleWorkflowCode } from '@temporalio/worker';

const SOURCE_DIR = join(__dirname, '..', '..', 'workflows');
const ALLOWED = [/^@temporalio\/workflow$/, /^@temporalio\/common$/, /^@pylon\/contracts$/, /^\.\/[\w.-]+$/];

/** Workflow code must stay deterministic: only the workflow SDK, the shared contracts and its own files. */
describe('workflow code', () => {
  const sources = readdirSync(SOURCE_DIR).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));

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
