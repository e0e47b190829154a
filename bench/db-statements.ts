import { parsePrometheusText, samplesOf } from '../test/support/prometheus';

/** Statements sent by one process, by label (`pylon_db_statements_total{statement}`), as read from its metrics. */
export type StatementCounts = Map<string, number>;

/** The process's `pylon_db_statements_total` by statement; empty when it exposes none (or no URL). */
export async function readStatementCounts(metricsUrl: string | undefined): Promise<StatementCounts> {
  const counts: StatementCounts = new Map();
  if (!metricsUrl) return counts;
  const response = await fetch(metricsUrl);
  if (!response.ok) throw new Error(`GET ${metricsUrl}: ${response.status}`);
  for (const sample of samplesOf(parsePrometheusText(await response.text()), 'pylon_db_statements_total'))
    counts.set(sample.labels.statement ?? '', (counts.get(sample.labels.statement ?? '') ?? 0) + sample.value);
  return counts;
}

/** Statements per run between two readings: the total and each statement's count, most frequent first. */
export function statementsPerRun(before: StatementCounts, after: StatementCounts, runs: number) {
  const statements = [...after]
    .map(([statement, count]) => ({ statement, perRun: (count - (before.get(statement) ?? 0)) / runs }))
    .filter((entry) => entry.perRun > 0)
    .sort((a, b) => b.perRun - a.perRun || a.statement.localeCompare(b.statement));
  const total = statements.reduce((sum, entry) => sum + entry.perRun, 0);
  return {
    total: Math.round(total * 100) / 100,
    statements: statements.map((entry) => ({ ...entry, perRun: Math.round(entry.perRun * 100) / 100 })),
  };
}

/** Reads every process's counts at once: call it before, and the function it returns after. */
export async function measureStatements(urls: Record<string, string | undefined>) {
  const tally = new StatementTally(urls);
  await tally.start();
  return async (runs: number) => {
    await tally.stop();
    return tally.perRun(runs);
  };
}

/** Each process's statements added up over several spans (start … stop), leaving out what they sent between them. */
export class StatementTally {
  private readonly sums = new Map<string, StatementCounts>();
  private started: Array<readonly [string, StatementCounts]> | undefined;

  constructor(private readonly urls: Record<string, string | undefined>) {}

  private read() {
    return Promise.all(Object.entries(this.urls).map(async ([process, url]) => [process, await readStatementCounts(url)] as const));
  }

  async start(): Promise<void> {
    this.started = await this.read();
  }

  async stop(): Promise<void> {
    if (!this.started) throw new Error('StatementTally.stop() without start()');
    const before = new Map(this.started);
    this.started = undefined;
    for (const [process, counts] of await this.read()) {
      const sum = this.sums.get(process) ?? new Map<string, number>();
      for (const [statement, count] of counts) sum.set(statement, (sum.get(statement) ?? 0) + count - (before.get(process)?.get(statement) ?? 0));
      this.sums.set(process, sum);
    }
  }

  /** Statements per run of the spans so far, per process. */
  perRun(runs: number) {
    return Object.fromEntries(
      Object.keys(this.urls).map((process) => [process, statementsPerRun(new Map(), this.sums.get(process) ?? new Map(), runs)]),
    );
  }
}
