import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsUUID, type ValidationOptions } from 'class-validator';

/**
 * UUIDs are case-insensitive; Pylon writes them in lower case, in its rows, its workflow ids and its
 * answers, so an id given in upper case is turned into that one id before it is compared or named.
 * Anything that is not a string is left for validation to refuse.
 */
export function inLowerCase<T>(value: T): T {
  if (typeof value === 'string') return value.toLowerCase() as T;
  if (Array.isArray(value)) return value.map((item: unknown) => (typeof item === 'string' ? item.toLowerCase() : item)) as T;
  return value;
}

/** A request field that must be a UUID (in either case), taken in lower case; `each` for an array of them. */
export function IsUuid(options: Pick<ValidationOptions, 'each'> = {}): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }) => inLowerCase(value)),
    IsUUID('all', options),
  );
}
