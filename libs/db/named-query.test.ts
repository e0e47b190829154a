import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Result, type FieldDef } from 'pg';
import { NamedQuery, type RowShapes } from './named-query';

const field = (name: string, dataTypeID: number): FieldDef => ({
  name,
  dataTypeID,
  format: 'text',
  tableID: 0,
  columnID: 0,
  dataTypeSize: -1,
  dataTypeModifier: -1,
});
const INT4 = 23;
const TIMESTAMPTZ = 1184;
const TEXT = 25;

/** Runs one execution of a named statement through the protocol messages pg's connection hands a query. */
function execute(shapes: RowShapes, fields: FieldDef[], rows: Array<Array<string | null>>, name = 'pylon_1'): Array<Record<string, unknown>> {
  let answer: Array<Record<string, unknown>> | undefined;
  const query = new NamedQuery(
    name,
    'SELECT …',
    [],
    (error, result) => {
      assert.ifError(error);
      answer = (result as { rows: Array<Record<string, unknown>> }).rows;
    },
    shapes,
  );
  const protocol = query as unknown as {
    handleRowDescription(message: { fields: FieldDef[] }): void;
    handleDataRow(message: { fields: Array<string | null> }): void;
    handleCommandComplete(message: { text: string }, connection: unknown): void;
    handleReadyForQuery(connection: unknown): void;
  };
  protocol.handleRowDescription({ fields: fields.map((f) => ({ ...f })) });
  for (const row of rows) protocol.handleDataRow({ fields: row });
  protocol.handleCommandComplete({ text: `SELECT ${rows.length}` }, undefined);
  protocol.handleReadyForQuery(undefined);
  return answer!;
}

/** How many times pg's Result built a row shape while `action` ran. */
function shapesBuilt(action: () => void): number {
  const prototype = Result.prototype as unknown as { addFields(fields: FieldDef[]): void };
  const addFields = prototype.addFields;
  let built = 0;
  prototype.addFields = function (this: unknown, fields: FieldDef[]) {
    built++;
    return addFields.call(this, fields);
  };
  try {
    action();
  } finally {
    prototype.addFields = addFields;
  }
  return built;
}

describe('a named statement reuses its row shape', () => {
  const fields = [field('n', INT4), field('at', TIMESTAMPTZ), field('note', TEXT)];

  it('builds the shape on the first execution only, and every row is parsed as pg parses it', () => {
    const shapes: RowShapes = new Map();
    const answers: Array<Array<Record<string, unknown>>> = [];
    const built = shapesBuilt(() => {
      answers.push(execute(shapes, fields, [['1', '2026-11-29 07:00:00+00', 'first']]));
      answers.push(
        execute(shapes, fields, [
          ['2', '2026-11-29 08:00:00+00', null],
          ['3', '2026-11-29 09:30:00+00', 'x'],
        ]),
      );
    });
    assert.equal(built, 1);
    assert.deepEqual(answers, [
      [{ n: 1, at: new Date('2026-11-29T07:00:00Z'), note: 'first' }],
      [
        { n: 2, at: new Date('2026-11-29T08:00:00Z'), note: null },
        { n: 3, at: new Date('2026-11-29T09:30:00Z'), note: 'x' },
      ],
    ]);
    assert.deepEqual(Object.keys(answers[1]![0]!), ['n', 'at', 'note'], 'the columns keep their order');
    assert.notEqual(answers[1]![0], answers[1]![1], 'each row is its own object');
  });

  it('builds a new shape when the description differs, and keeps each statement’s shape apart', () => {
    const shapes: RowShapes = new Map();
    const renamed = [field('n', INT4), field('at', TEXT), field('note', TEXT)];
    let rows: unknown[] = [];
    const built = shapesBuilt(() => {
      execute(shapes, fields, [['1', '2026-11-29 07:00:00+00', 'a']]);
      rows = execute(shapes, renamed, [['2', 'not a date', 'b']]);
      execute(shapes, [field('other', TEXT)], [['c']], 'pylon_2');
      execute(shapes, [field('other', TEXT)], [['d']], 'pylon_2');
    });
    assert.equal(built, 3, 'the first shape, the changed one, and pylon_2’s');
    assert.deepEqual(rows, [{ n: 2, at: 'not a date', note: 'b' }]);
    assert.deepEqual(Object.keys(shapes.get('pylon_1')!.emptyRow), ['n', 'at', 'note']);
  });
});
