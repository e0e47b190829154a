import { PylonError } from '@pylon/contracts';
import { type ClassConstructor, type ClassTransformOptions, TransformationType, classToPlain, plainToInstance } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage } from 'class-validator';

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

/** How strictTransformer treats one property of a DTO. */
interface PropertyShape {
  /** The class its @Type names, or null; a nested DTO when that class has validated properties itself. */
  typed: unknown;
  /** Whether a @Transform changes it, so that its value must go through class-transformer. */
  transformed: boolean;
}

const shapes = new WeakMap<object, ReadonlyMap<string, PropertyShape>>();

/**
 * The properties the DTO validates (the ones the whitelist lets through), each with its shape: read from
 * the decorators' metadata once per class, not on every request.
 */
function shapeOf(type: ClassConstructor<unknown>): ReadonlyMap<string, PropertyShape> {
  let shape = shapes.get(type);
  if (!shape) {
    const properties = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(type, '', true, false)
        .map((metadata) => metadata.propertyName),
    );
    shape = new Map(
      [...properties].map((property) => [
        property,
        { typed: defaultMetadataStorage.findTypeMetadata(type, property)?.typeFunction?.() ?? null, transformed: isTransformed(type, property) },
      ]),
    );
    shapes.set(type, shape);
  }
  return shape;
}

function hasValidatedProperties(type: unknown): type is ClassConstructor<unknown> {
  return typeof type === 'function' && shapeOf(type as ClassConstructor<unknown>).size > 0;
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
  const shape = shapeOf(type);
  const reduced: Record<string, unknown> = {};
  for (const key of Object.keys(plain)) {
    const property = shape.get(key);
    if (!property) throw PylonError.invalidRequest(`${[...path, key].join('.')}: property ${key} should not exist`);
    const value = plain[key];
    const nested = hasValidatedProperties(property.typed) ? property.typed : null;
    const { transformed } = property;
    if (nested && isPlainObject(value)) {
      reduced[key] = reduce(nested, value, [...path, key], untyped);
    } else if (nested && Array.isArray(value)) {
      reduced[key] = value.map((item: unknown, index) => (isPlainObject(item) ? reduce(nested, item, [...path, key, index], untyped) : item));
    } else if (typeof value === 'object' && value !== null && !nested && !transformed) {
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
