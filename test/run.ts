/**
 * `npm test`: starts what the suites need (see startInfrastructure) and runs every compiled
 * `*.test.js` under dist-test/ (the tree `npm run build:test` compiles: the application with its unit
 * tests, test/ and bench/) with Node's test runner. `npm test -- <substring>…` runs the files whose path
 * under dist-test/ contains one of them; `--leg=database` or `--leg=topology` runs only the files of that leg
 * (see LEGS): what CI's second and third runs (native PostgreSQL, the cluster topology) add to the first.
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

type Leg = 'database' | 'topology';

/**
 * CI runs every file once, on PGlite and the Temporal dev server with one API and one worker per stack. Its two
 * other runs each rerun only the suites whose behaviour depends on what that run changes (docs/testing.md, "What
 * each run proves"); everything else is answered alike on any database and topology. Each entry is an e2e file
 * (`test/e2e/<name>.e2e.test.ts`) and why it is rerun; the longest come first, so that two files at a time end
 * together. A name that matches no file stops the run.
 */
const LEGS: Record<Leg, { label: string; files: Record<string, string>; alsoRuns?: RegExp }> = {
  database: {
    label: 'native PostgreSQL (DATABASE_URL)',
    // PGlite is PostgreSQL in one session: every statement waits for the one before, so nothing there races, and
    // its pgvector is another version with another planner. A server with many sessions is where races, locks,
    // NOTIFY between connections, prepared statements per connection and the vector index's paths are real.
    files: {
      backlog: "a full backlog refused exactly at its cap while creates race; 100 creates at once within a key's burst",
      'agent-schedules': 'kept on every run while its features are rewritten: scheduled runs, whose order the database and topology decide',
      'mcp-tools': 'kept on every run while its features are rewritten: runs that wait on tools',
      'knowledge-revisions': 'concurrent replacements, and searches during a swap that never see two revisions or part of one',
      'run-events': "LISTEN/NOTIFY waking another API process's stream; an event too large for NOTIFY read back from the log",
      'agent-runs': 'ten creates racing on one Idempotency-Key make one run; the run statements end to end',
      conversations: 'kept on every run while its features are rewritten: turns, whose order the database and topology decide',
      'run-costs': '100 runs at once against a balance for 10: ten paid, none below zero',
      'knowledge-bases': 'scoped searches on the HNSW path; two first documents at once make one default base',
      limits: "a key's rate, held in one row by two API processes at once",
      'knowledge-query': "filters and the keyword, vector and hybrid legs as SQL, exactly and on the organisation's HNSW index",
      'knowledge-vector-index': 'CREATE INDEX CONCURRENTLY held by a lock while searches go on (only a server can show it)',
      'agent-tools': 'kept on every run while its features are rewritten: runs that wait for tool outputs',
      knowledge: "a small organisation's full top-k next to a large one on the HNSW path (pgvector's iterative scan where it has one)",
      usage: 'the usage aggregates, and the key request counters flushed into one row by each process',
      logs: "PostgreSQL's own errors logged with their code, constraint and table, and never a row it quotes",
      'idempotent-creates': 'two creates racing on one Idempotency-Key: one resource, on concurrent sessions',
      'run-projection': "a run's final statement repeated by a retried activity, on the real database",
      'token-grants': 'grants racing on one Idempotency-Key make one ledger entry',
      'api-key-changes': 'a key change answers only once NOTIFY reached the listening connection',
      'model-price-changes': 'a price change answers only once NOTIFY reached the listening connection',
      'prepared-statements': 'named statements prepared once per connection',
      'openai-responses': "responses awaited and streamed by following the run's log through LISTEN/NOTIFY on a server",
    },
    // The repository tier: the one-statement writes and the ledger's concurrent debits, on the database alone.
    alsoRuns: /^libs\/[^/]+\/repositories\/.*\.repository\.test\.js$/,
  },
  topology: {
    label: 'the cluster topology (PYLON_TEST_TOPOLOGY=cluster)',
    // Two API replicas behind one port and two workers per stack, on a Temporal server on PostgreSQL: what one
    // process keeps must agree with the other's, tasks move between workers, and Temporal is a real server.
    files: {
      resilience: 'a worker or the API killed with SIGKILL mid-run and mid-create: every acknowledged run finishes once',
      'mcp-tools': 'kept on every run while its features are rewritten: runs that wait on tools, across workers',
      'agent-schedules': 'kept on every run while its features are rewritten: schedules on the Temporal server, firings across workers',
      'cluster-failover': 'a replica and a worker killed, Temporal and PostgreSQL restarted, under load (runs only here)',
      'noisy-neighbour': "fairness keys dispatching a quiet organisation's tasks between a flood's, across two workers",
      'run-events': 'a stream on one replica following a run created on another',
      'agent-run-lanes': 'the express lane and the runs queue, both polled by every worker',
      'agent-runs': 'runs through the Temporal server and two workers: found by search attributes; a cancel reaching the worker mid-call',
      limits: "a key's rate held by the two replicas together",
      'agent-tools': 'kept on every run while its features are rewritten: tool outputs answered on any replica, taken by either worker',
      usage: "each replica's request counters summed, none counted twice",
      'cluster-launcher': '`npm run start:cluster` started, answering and stopped (runs only here)',
      'api-keys': 'a key revoked or rolled through one replica refused at once by the other',
      conversations: 'kept on every run while its features are rewritten: turns in order through either replica and worker',
      'openai-responses': 'responses and completions through either replica: a wait, a stream and a resumed stream following a run the other started',
    },
  },
};

function parseLeg(args: string[]): Leg | undefined {
  const option = args.find((arg) => arg.startsWith('--leg'));
  if (option === undefined) return undefined;
  const leg = option.replace(/^--leg=?/, '');
  if (!(leg in LEGS))
    throw new Error(
      `${option}: the legs are ${Object.keys(LEGS)
        .map((name) => `--leg=${name}`)
        .join(', ')}`,
    );
  return leg as Leg;
}

function testFiles(filters: string[], leg: Leg | undefined): string[] {
  const all = readdirSync(DIST, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.js'))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !file.includes('node_modules'))
    .sort();
  const matching = (file: string) => filters.length === 0 || filters.some((filter) => relative(DIST, file).includes(filter));
  if (leg === undefined) return all.filter(matching);
  const { files, alsoRuns } = LEGS[leg];
  const named = Object.keys(files).map((name) => {
    const file = join(DIST, 'test', 'e2e', `${name}.e2e.test.js`);
    if (!all.includes(file)) throw new Error(`--leg=${leg} names ${name}, but there is no test/e2e/${name}.e2e.test.ts`);
    return file;
  });
  const tier = alsoRuns ? all.filter((file) => alsoRuns.test(relative(DIST, file))) : [];
  return [...named, ...tier].filter(matching);
}

async function main(): Promise<number> {
  requireSupportedNode();
  console.log(`Node ${process.version} (${process.execPath})`);
  const args = process.argv.slice(2);
  const unknown = args.find((arg) => arg.startsWith('--') && !arg.startsWith('--leg'));
  if (unknown) throw new Error(`${unknown}: the options are --leg=${Object.keys(LEGS).join(' and --leg=')}; other arguments pick files by path`);
  const leg = parseLeg(args);
  const filters = args.filter((arg) => !arg.startsWith('--'));
  const files = testFiles(filters, leg);
  if (files.length === 0) throw new Error(`no test files match ${filters.join(' or ') || '*'}${leg ? ` in --leg=${leg}` : ''}`);
  if (leg) console.log(`--leg=${leg}: the suites whose behaviour depends on ${LEGS[leg].label}`);
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
