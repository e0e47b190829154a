import { type ClassConstructor, type ClassTransformOptions, TransformationType, classToPlain, plainToInstance } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage } from 'class-validator';
import { ApiError } from './api-error';

/**
 * class-transformer, as the validation pipe's transformer, with two of its habits taken away:
 * - it skips a property named like a member of Object.prototype (`constructor`, `toString`,
 *   `valueOf`, …), so such an extra property never reached the whitelist check and the same key
 *   inside free-form metadata was dropped silently;
 * - it de-duplicates an object's keys with indexOf, which is quadratic: an unknown object of 120 000
 *   keys held the event loop for 30 s before the whitelist check refused it.
 * So every key of the body is checked against the DTO's properties first (once, with a Set), the way
 * the whitelist words it, and a property that the DTO does not type (free-form JSON: metadata,
 * filters, lists of strings) is handed on exactly as parsed instead of being copied key by key.
 */
export const strictTransformer = {
  plainToInstance: <T>(type: ClassConstructor<T>, plain: unknown, options?: ClassTransformOptions): T | T[] => {
    if (!isPlainObject(plain) || !hasValidatedProperties(type)) return plainToInstance(type, plain, options);
    const untyped: UntypedValue[] = [];
    const reduced = reduce(type, plain, [], untyped);
    const instance = plainToInstance(type, reduced, options) as Record<string, unknown>;
    for (const { path, value } of untyped) setAt(instance, path, value);
    return instance as T;
  },
  classToPlain,
};

interface UntypedValue {
  path: Array<string | number>;
  value: unknown;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const propertiesOf = new WeakMap<object, ReadonlySet<string>>();

/** The properties the DTO validates, which are the ones the whitelist lets through. */
function validatedProperties(type: ClassConstructor<unknown>): ReadonlySet<string> {
  let properties = propertiesOf.get(type);
  if (!properties) {
    properties = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(type, '', true, false)
        .map((metadata) => metadata.propertyName),
    );
    propertiesOf.set(type, properties);
  }
  return properties;
}

function hasValidatedProperties(type: unknown): type is ClassConstructor<unknown> {
  return typeof type === 'function' && validatedProperties(type as ClassConstructor<unknown>).size > 0;
}

/** The nested DTO a property holds (by its @Type), or null for a property class-transformer only copies. */
function nestedTypeOf(type: ClassConstructor<unknown>, property: string): ClassConstructor<unknown> | null {
  const metadata = defaultMetadataStorage.findTypeMetadata(type, property);
  const nested: unknown = metadata?.typeFunction?.();
  return hasValidatedProperties(nested) ? nested : null;
}

function isTransformed(type: ClassConstructor<unknown>, property: string): boolean {
  return defaultMetadataStorage.findTransformMetadatas(type, property, TransformationType.PLAIN_TO_CLASS).length > 0;
}

/**
 * A copy of `plain` for class-transformer: every key checked against the DTO, nested DTOs reduced in
 * turn, and the objects and arrays of untyped properties left out (collected in `untyped` to be set
 * on the instance afterwards, as they were sent).
 */
function reduce(
  type: ClassConstructor<unknown>,
  plain: Record<string, unknown>,
  path: Array<string | number>,
  untyped: UntypedValue[],
): Record<string, unknown> {
  const properties = validatedProperties(type);
  const reduced: Record<string, unknown> = {};
  for (const key of Object.keys(plain)) {
    if (!properties.has(key)) throw ApiError.invalidRequest(`${[...path, key].join('.')}: property ${key} should not exist`);
    const value = plain[key];
    const nested = nestedTypeOf(type, key);
    if (nested && isPlainObject(value)) {
      reduced[key] = reduce(nested, value, [...path, key], untyped);
    } else if (nested && Array.isArray(value)) {
      reduced[key] = value.map((item: unknown, index) => (isPlainObject(item) ? reduce(nested, item, [...path, key, index], untyped) : item));
    } else if (typeof value === 'object' && value !== null && !nested && !isTransformed(type, key)) {
      untyped.push({ path: [...path, key], value });
    } else {
      reduced[key] = value;
    }
  }
  return reduced;
}

function setAt(instance: Record<string, unknown>, path: Array<string | number>, value: unknown): void {
  let target: Record<string | number, unknown> = instance;
  for (const step of path.slice(0, -1)) target = target[step] as Record<string | number, unknown>;
  target[path[path.length - 1]!] = value;
}
