import { ValidateIf } from 'class-validator';

/**
 * The property may be left out; when it is sent, its other rules apply, so `null` is refused unless
 * they allow it. (class-validator's IsOptional also lets `null` through, which the OpenAPI document
 * would have to call nullable; it stays on the properties where null has a meaning.)
 */
export function IsOmittable(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}
