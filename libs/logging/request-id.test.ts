import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { REQUEST_ID_KEY } from './logger-options';
import { requestIdFor, requestIdMixin, runForRequest } from './request-id';

describe('request ids', () => {
  it("keeps a sane caller's id and replaces anything else with a UUID", () => {
    assert.equal(requestIdFor('abc-123:x.y_z'), 'abc-123:x.y_z');
    for (const header of [undefined, '', 'a b', 'x'.repeat(129), ['a', 'b'], 'line\nbreak']) {
      assert.match(requestIdFor(header), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it('the log mixin adds the id of the request being handled, through awaits, and nothing outside one', async () => {
    assert.deepEqual(requestIdMixin(), {});
    const seen = await Promise.all(
      ['first', 'second'].map((id) =>
        runForRequest(id, async () => {
          await nextTurn();
          return requestIdMixin();
        }),
      ),
    );
    assert.deepEqual(seen, [{ [REQUEST_ID_KEY]: 'first' }, { [REQUEST_ID_KEY]: 'second' }]);
    assert.deepEqual(requestIdMixin(), {});
  });
});
