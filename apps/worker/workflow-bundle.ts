import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DefaultLogger, bundleWorkflowCode, type BundleOptions, type Logger, type WorkflowBundleOption } from '@temporalio/worker';

/**
 * Where `npm run build` writes the workflow code, bundled once (dist/workflows.bundle.js). `npm run build`
 * empties dist first, so the bundle is always of the workflows compiled beside it. `npm run build:test`
 * copies it into dist-test/, which it compiles from the same sources right after.
 */
export const WORKFLOW_BUNDLE_PATH = join(__dirname, '..', '..', 'workflows.bundle.js');

function bundleOptions(logger: Logger): BundleOptions {
  return {
    workflowsPath: require.resolve('../../workflows'),
    workflowInterceptorModules: [require.resolve('../../workflows/outcome-interceptors')],
    logger,
  };
}

/**
 * The workflow code a Worker runs: the bundle the build made, or, where there is none (a dist built by
 * hand), bundled now. Bundling at start-up loads webpack into the worker for good: ≈ 29 MB more live
 * heap that every full garbage collection of the worker's main thread then walks, and ≈ 60 MB of RSS.
 */
export async function workflowBundle(logger: Logger): Promise<{ bundle: WorkflowBundleOption; prebuilt: boolean }> {
  if (existsSync(WORKFLOW_BUNDLE_PATH)) return { bundle: { codePath: WORKFLOW_BUNDLE_PATH }, prebuilt: true };
  return { bundle: await bundleWorkflowCode(bundleOptions(logger)), prebuilt: false };
}

/** `node dist/apps/worker/workflow-bundle.js`, the last step of `npm run build`: writes the bundle. */
async function writeBundle(): Promise<void> {
  const { code } = await bundleWorkflowCode(bundleOptions(new DefaultLogger('WARN')));
  writeFileSync(WORKFLOW_BUNDLE_PATH, code);
}

if (require.main === module) {
  writeBundle().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
