import { Body } from '@nestjs/common';
import { BodyShapePipe } from './body-shape.pipe';
import { requestValidation } from './validation.pipe';

const bodyShape = new BodyShapePipe();

/**
 * `@Body()` for an operation's JSON body: one JSON object (BodyShapePipe), validated as its DTO. The pipes
 * sit on the parameters they check rather than globally, where Nest ran them on every parameter of every
 * request (the principal, path ids) only to pass the value on.
 */
export function JsonBody(): ParameterDecorator {
  return Body(bodyShape, requestValidation);
}

/** The same checks on a body an operation reads itself: a JSON body beside multipart/form-data, or a form's fields. */
export async function validJsonBody<T extends object>(body: unknown, metatype: new () => T): Promise<T> {
  return (await requestValidation.transform(bodyShape.transform(body, { type: 'body' }), { type: 'body', metatype })) as T;
}
