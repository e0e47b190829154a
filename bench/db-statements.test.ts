import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StatementTally, statementsPerRun } from './db-statements';

describe('statementsPerRun', () => {
  it('divides what each statement grew by by the runs, most frequent first, leaving out those that did not grow', () => {
    const before = new Map([
      ['SELECT a', 10],
      ['COMMIT', 4],
    ]);
    const after = new Map([
      ['SELECT a', 30],
      ['COMMIT', 4],
      ['INSERT b', 10],
    ]);
    assert.deepEqual(statementsPerRun(before, after, 10), {
      total: 3,
      statements: [
        { statement: 'SELECT a', perRun: 2 },
        { statement: 'INSERT b', perRun: 1 },
      ],
    });
  });
});

describe('StatementTally', () => {
  it("adds up each process's statements over its spans only, leaving out what came between them", async () => {
    const counts = new Map([['INSERT run', 0]]);
    const server = createServer((_request, response) => {
      response.setHeader('content-type', 'text/plain; version=0.0.4');
      const samples = [...counts].map(([statement, count]) => `pylon_db_statements_total{statement="${statement}"} ${count}`);
      response.end(['# HELP pylon_db_statements_total Statements sent.', '# TYPE pylon_db_statements_total counter', ...samples, ''].join('\n'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const tally = new StatementTally({ api: `http://127.0.0.1:${port}/metrics`, worker: undefined });
      await tally.start();
      counts.set('INSERT run', 3);
      await tally.stop();
      counts.set('INSERT run', 10); // between the spans: not counted
      counts.set('SELECT run', 4);
      await tally.start();
      counts.set('INSERT run', 13);
      counts.set('SELECT run', 7);
      await tally.stop();
      assert.deepEqual(tally.perRun(6), {
        api: {
          total: 1.5,
          statements: [
            { statement: 'INSERT run', perRun: 1 },
            { statement: 'SELECT run', perRun: 0.5 },
          ],
        },
        worker: { total: 0, statements: [] },
      });
    } finally {
      server.close();
    }
  });
});
