import type { OpenAPIObject } from '@nestjs/swagger';
import { BATCH_FORM_SCHEMA } from '../knowledge/dto/knowledge-batches.dto';

/**
 * An operation that takes JSON or a form: @nestjs/swagger gives every media type of @ApiConsumes the
 * same schema, so the form's own is written in here.
 */
export function documentUploadForms(document: OpenAPIObject): void {
  const batches = document.paths['/api/v1/knowledge/batches']?.post;
  const content = (batches?.requestBody as { content?: Record<string, { schema: unknown }> } | undefined)?.content;
  if (content?.['multipart/form-data']) content['multipart/form-data'].schema = BATCH_FORM_SCHEMA;
}
