import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { ApiError } from './api-error';
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

/** The Error-Detail the API's validation pipe gives for `value` as a body of `type`. */
async function detailFor(type: new () => object, value: unknown): Promise<string> {
  try {
    await createValidationPipe().transform(value, { type: 'body', metatype: type });
  } catch (error) {
    assert.ok(error instanceof ApiError);
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

  it('picks by rule, whatever order the rules come in', () => {
    assert.equal(mainConstraint({ maxLength: 'too long', isString: 'not a string' }), 'not a string');
    assert.equal(mainConstraint({ isString: 'not a string', isDefined: 'missing' }), 'missing');
    assert.equal(mainConstraint({ customRule: 'custom' }), 'custom');
    assert.equal(mainConstraint({}), undefined);
    assert.equal(firstProblem([]), 'request invalid');
  });
});
