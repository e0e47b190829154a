import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JSON_BODY_LIMITS, scanJson } from './json-scan';

const scan = (text: string) => scanJson(Buffer.from(text, 'utf8'));

function nested(depth: number): string {
  let text = '"leaf"';
  for (let i = 0; i < depth; i++) text = i % 2 ? `{"a":${text}}` : `[${text}]`;
  return text;
}

function objectWithKeys(count: number): string {
  return `{${Array.from({ length: count }, (_, i) => `"k${i}":0`).join(',')}}`;
}

describe('scanJson', () => {
  it('accepts ordinary bodies and finds nothing in them', () => {
    for (const body of ['{}', '[]', '{"a":[1,2,{"b":"c"}],"d":null,"e":true}', '{"t":"Пилон 🚀 \\" \\\\ {[,:"}', '  {"n": -1.5e10}  ']) {
      assert.deepEqual(scan(body), { limit: null, duplicateKey: null, inexactNumber: null }, body);
    }
  });

  it(`allows exactly ${JSON_BODY_LIMITS.depth} levels of nesting and refuses one more`, () => {
    assert.equal(scan(nested(JSON_BODY_LIMITS.depth)).limit, null);
    assert.match(scan(nested(JSON_BODY_LIMITS.depth + 1)).limit!, /nests deeper than 32 levels/);
  });

  it('walks 100 000 levels without exhausting the stack, unclosed or closed', () => {
    assert.match(scan('{"x":' + '['.repeat(100_000)).limit!, /deeper/);
    assert.match(scan(nested(100_000)).limit!, /deeper/);
  });

  it('counts keys per object, items per array and values in the whole body', () => {
    assert.equal(scan(objectWithKeys(JSON_BODY_LIMITS.keysPerObject)).limit, null);
    assert.match(scan(objectWithKeys(JSON_BODY_LIMITS.keysPerObject + 1)).limit!, /more than 1000 keys/);
    assert.match(scan(`{"x":${objectWithKeys(120_000)}}`).limit!, /more than 1000 keys/);
    assert.equal(scan(`[${'0,'.repeat(JSON_BODY_LIMITS.itemsPerArray - 1)}0]`).limit, null);
    assert.match(scan(`[${'0,'.repeat(JSON_BODY_LIMITS.itemsPerArray)}0]`).limit!, /more than 10000 items/);
    const manySmallArrays = `[${Array.from({ length: 20 }, () => `[${'1,'.repeat(5_999)}1]`).join(',')}]`;
    assert.match(scan(manySmallArrays).limit!, /more than 100000 values/);
  });

  it('finds a repeated key, also when escapes spell it differently, in the object that repeats it', () => {
    assert.deepEqual(scan('{"a":1,"b":{"a":2}}').duplicateKey, null);
    assert.deepEqual(scan('{"a":1,"b":2,"a":3}').duplicateKey, { key: 'a', offset: 13 });
    assert.equal(scan('{"org_id":1,"\\u006frg_id":2}').duplicateKey?.key, 'org_id');
    assert.equal(scan('[{"x":1},{"x":2},{"y":{"z":1,"z":2}}]').duplicateKey?.key, 'z');
  });

  it('refuses numbers that would not be stored as sent', () => {
    assert.equal(scan('{"a":9007199254740991,"b":-9007199254740991,"c":1e300,"d":0.1,"e":5e-324,"f":0,"g":0.0e5}').inexactNumber, null);
    assert.match(scan('{"a":9007199254740993}').inexactNumber!, /beyond 2\^53/);
    assert.match(scan('{"a":[-12345678901234567890]}').inexactNumber!, /beyond 2\^53/);
    assert.match(scan('{"a":1e-400}').inexactNumber!, /smallest double/);
  });

  it('scans text that is not JSON without throwing (JSON.parse refuses it afterwards)', () => {
    for (const junk of ['', '}}}]]]', '{"a', '{"a":"\\', 'not json', '{:::,,,}', '\u0000\u00ff']) assert.doesNotThrow(() => scan(junk));
  });
});
