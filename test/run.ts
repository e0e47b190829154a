/**
 * `npm test`: starts what the suites need (see startInfrastructure) and runs every compiled
 * `*.test.js` under dist-test/ (the tree `npm run build:test` compiles: the application with its unit
 * tests, test/ and bench/) with Node's test runner. `npm test -- <substring>…` runs the files whose path
 * under dist-test/ contains one of them; `--e2e-only` runs only the files that use the database and the
 * Temporal server it started (see usesInfrastructure), but for the client suites: what CI's second and
 * third legs (native PostgreSQL, the cluster topology) add to the first.
 * The logs of every API and worker the suites start go to one directory per run, printed at the end.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { requireSupportedNode } from '@pylon/config';
import { startInfrastructure } from './support/infrastructure';

/** dist-test/, seen from dist-test/test/. */
const DIST = join(__dirname, '..');

/**
 * The files that run against the started infrastructure: the end-to-end suites and the repository tier. The
 * rest (unit tests, workflow tests on the time-skipping server, the docs and SDK drift checks) use neither
 * the database nor the Temporal server, so they pass or fail the same on every database and topology.
 */
function usesInfrastructure(file: string): boolean {
  const path = relative(DIST, file);
  return path.startsWith('test/e2e/') || /^libs\/db\/repositories\/.*\.repository\.test\.js$/.test(path);
}

/**
 * The suites that drive Pylon through a real client: the console in Chromium, both SDKs installed from
 * their packages, schemathesis. The API answers them alike on every database and topology, and they are
 * the slowest files, so `--e2e-only` leaves them to the run that has every file.
 */
const CLIENT_SUITES = ['console.browser.e2e', 'sdk-typescript.e2e', 'sdk-python.e2e', 'schemathesis.e2e'];

function testFiles(filters: string[], e2eOnly: boolean): string[] {
  return readdirSync(DIST, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.js'))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !file.includes('node_modules') && (filters.length === 0 || filters.some((filter) => relative(DIST, file).includes(filter))))
    .filter((file) => !e2eOnly || (usesInfrastructure(file) && !CLIENT_SUITES.some((suite) => file.includes(suite))))
    .sort();
}

async function main(): Promise<number> {
  requireSupportedNode();
  console.log(`Node ${process.version} (${process.execPath})`);
  const args = process.argv.slice(2);
  const e2eOnly = args.includes('--e2e-only');
  const filters = args.filter((arg) => arg !== '--e2e-only');
  const files = testFiles(filters, e2eOnly);
  if (files.length === 0) throw new Error(`no test files match ${filters.join(' or ') || '*'}${e2eOnly ? ' among the e2e files' : ''}`);
  const logDir = join(tmpdir(), 'pylon-test-logs', `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`);
  mkdirSync(logDir, { recursive: true });
  const infra = await startInfrastructure();
  console.log(`test infrastructure: ${infra.databaseLabel}; ${infra.temporalLabel}`);
  console.log(`app logs of this run (API and worker) go to ${logDir}`);
  console.log(`running ${files.length} test files: ${files.map((file) => relative(DIST, file)).join(', ')}`);
  try {
    const concurrency = process.env.PYLON_TEST_CONCURRENCY || '1';
    const child = spawn(process.execPath, ['--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files], {
      stdio: 'inherit',
      env: { ...process.env, ...infra.env, PYLON_TEST_LOG_DIR: logDir },
    });
    const code = await new Promise<number>((resolve) => child.on('exit', (exitCode) => resolve(exitCode ?? 1)));
    console.log(`app logs of this run (API and worker): ${logDir}`);
    return code;
  } finally {
    await infra.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
