import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'class-transformer';
import { IsArray, IsInt, IsNotEmpty, IsObject, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { PylonError } from '@pylon/contracts';
import { createValidationPipe, firstProblem, mainConstraint } from './validation.pipe';

class Page {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}

class Prompt {
  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  user_prompt!: string;
}

class Wrapper {
  @ValidateNested()
  @Type(() => Prompt)
  inner!: Prompt;
}

class Document {
  @IsString()
  title!: string;

  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;

  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => Prompt)
  @IsArray()
  prompts?: Prompt[];
}

/** The Error-Detail the API's validation pipe gives for `value` as a body of `type`. */
async function detailFor(type: new () => object, value: unknown): Promise<string> {
  try {
    await createValidationPipe().transform(value, { type: 'body', metatype: type });
  } catch (error) {
    assert.ok(error instanceof PylonError);
    return error.detail ?? '';
  }
  assert.fail('the value passed validation');
}

describe('validation problems', () => {
  it('a missing field says it is missing or of the wrong type, not that it is too long', async () => {
    assert.match(await detailFor(Prompt, {}), /^user_prompt (should not be empty|must be a string)$/);
  });

  it('a query number that is not a number says so, not that it is out of range', async () => {
    assert.equal(await detailFor(Page, { limit: 'ten' }), 'limit must be an integer number');
  });

  it('an out-of-range value names its range', async () => {
    assert.equal(await detailFor(Page, { limit: 500 }), 'limit must not be greater than 100');
  });

  it('an extra property is told before anything else, with its path when nested', async () => {
    assert.equal(await detailFor(Prompt, { user_prompt: 'x', prompt: 'y' }), 'prompt: property prompt should not exist');
    assert.equal(await detailFor(Wrapper, { inner: { user_prompt: '' } }), 'inner.user_prompt should not be empty');
  });

  it('refuses an extra property named like a member of Object.prototype, at any depth', async () => {
    for (const name of ['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'prototype', '__defineGetter__', 'isPrototypeOf']) {
      assert.equal(await detailFor(Prompt, JSON.parse(`{"user_prompt":"x","${name}":1}`)), `${name}: property ${name} should not exist`);
      assert.equal(
        await detailFor(Document, JSON.parse(`{"title":"t","prompts":[{"user_prompt":"x"},{"user_prompt":"y","${name}":1}]}`)),
        `prompts.1.${name}: property ${name} should not exist`,
      );
    }
  });

  it('keeps free-form metadata exactly as sent, whatever its keys', async () => {
    const text =
      '{"title":"t","metadata":{"constructor":"x","toString":1,"valueOf":2,"prototype":3,"n":{"constructor":{"a":1}},"l":[{"hasOwnProperty":true}]}}';
    const document = (await createValidationPipe().transform(JSON.parse(text), { type: 'body', metatype: Document })) as Document;
    assert.ok(document instanceof Document);
    assert.deepEqual(document.metadata, (JSON.parse(text) as Document).metadata);
  });

  it('still makes nested DTOs instances of their classes', async () => {
    const document = (await createValidationPipe().transform(
      { title: 't', prompts: [{ user_prompt: 'x' }] },
      { type: 'body', metatype: Document },
    )) as Document;
    assert.ok(document.prompts![0] instanceof Prompt);
  });

  it('picks by rule, whatever order the rules come in', () => {
    assert.equal(mainConstraint({ maxLength: 'too long', isString: 'not a string' }), 'not a string');
    assert.equal(mainConstraint({ isString: 'not a string', isDefined: 'missing' }), 'missing');
    assert.equal(mainConstraint({ customRule: 'custom' }), 'custom');
    assert.equal(mainConstraint({}), undefined);
    assert.equal(firstProblem([]), 'request invalid');
  });
});
