import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boundLine, truncate } from './truncation';

describe('truncate', () => {
  const cases: Array<[name: string, input: string, max: number, expected: string]> = [
    ['keeps a short string', 'hello', 10, 'hello'],
    ['keeps a string of exactly the limit', 'abcde', 5, 'abcde'],
    ['cuts a long string and says how much it cut', 'abcdefghij', 4, 'abcd… [truncated 6 chars]'],
    ['cuts an empty limit to the note alone', 'abc', 0, '… [truncated 3 chars]'],
  ];
  for (const [name, input, max, expected] of cases) {
    it(name, () => assert.equal(truncate(input, max), expected));
  }
});

describe('boundLine', () => {
  const line = (entry: object) => `${JSON.stringify(entry)}\n`;
  const cases: Array<[name: string, input: string, check: (output: string) => void]> = [
    ['keeps a short line as it is', line({ level: 30, msg: 'ok' }), (output) => assert.equal(output, line({ level: 30, msg: 'ok' }))],
    [
      'cuts the long strings of a long line and says so',
      line({ level: 50, requestId: 'r1', msg: 'failed', err: { message: 'x'.repeat(20_000) } }),
      (output) => {
        const entry = JSON.parse(output);
        assert.equal(entry.requestId, 'r1');
        assert.equal(entry.msg, 'failed');
        assert.match(entry.err.message, /^x{200}… \[truncated 19800 chars\]$/);
        assert.ok(entry.truncated.originalBytes > 20_000);
      },
    ],
    [
      'keeps only the essentials of a line that is long for its many fields',
      line({ level: 50, requestId: 'r2', msg: 'many', ...Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`field${i}`, 'y'.repeat(100)])) }),
      (output) => {
        const entry = JSON.parse(output);
        assert.deepEqual(Object.keys(entry).sort(), ['level', 'msg', 'requestId', 'truncated']);
        assert.equal(entry.truncated.fieldsDropped, true);
      },
    ],
    [
      'cuts a long line that is not JSON',
      `${'z'.repeat(10_000)}\n`,
      (output) => {
        const entry = JSON.parse(output);
        assert.match(entry.msg, /truncated/);
        assert.equal(entry.truncated.originalBytes, 10_001);
      },
    ],
  ];
  for (const [name, input, check] of cases) {
    it(name, () => {
      const output = boundLine(input, 8_192);
      assert.ok(Buffer.byteLength(output) <= 8_192, `${Buffer.byteLength(output)} bytes`);
      assert.ok(output.endsWith('\n'));
      check(output);
    });
  }
});
