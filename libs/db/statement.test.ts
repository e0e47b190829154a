import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parameter, statement } from './statement';

type Input = { id: string; pair: { a: number; b: boolean } };

describe('statement', () => {
  it('numbers the parameters in the order declared, groups too, and reads the values in that order', () => {
    const built = statement<Input>()(
      {
        id: parameter('uuid', (input) => input.id),
        pair: { a: parameter<Input>('integer', (input) => input.pair.a), b: parameter<Input>('boolean', (input) => input.pair.b) },
      },
      (p) => `SELECT ${p.pair.b}, ${p.pair.a} WHERE id = ${p.id} OR ${p.id} IS NULL`,
    );
    assert.equal(built.text, 'SELECT $3::boolean, $2::integer WHERE id = $1::uuid OR $1::uuid IS NULL');
    assert.deepEqual(built.values({ id: 'x', pair: { a: 1, b: true } }), ['x', 1, true]);
  });

  it('refuses a declared parameter the text never uses', () => {
    assert.throws(
      () => statement<Input>()({ id: parameter('uuid', (input) => input.id), unused: parameter('text', () => null) }, (p) => `SELECT ${p.id}`),
      /\$2 are declared but never used/,
    );
  });
});
