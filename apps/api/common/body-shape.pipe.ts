import { PylonError } from '@pylon/contracts';
import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { UnparsableBody } from './body-parsing';

/** A request body must be one JSON object; anything else is `invalid_request` (or `unsupported_media_type`) before field validation. */
@Injectable()
export class BodyShapePipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'body') return value;
    if (value instanceof UnparsableBody) throw new PylonError(value.code, value.reason);
    if (value === undefined || value === null) throw PylonError.invalidRequest('a JSON object body is required');
    if (typeof value !== 'object' || Array.isArray(value)) throw PylonError.invalidRequest('the body must be a JSON object');
    return value;
  }
}
