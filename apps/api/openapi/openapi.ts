import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { PylonConfig } from '@pylon/config';
import { documentDeploymentLimits, documentRateLimits, documentStorableText, documentTransportErrors } from './enforced-rules';
import { documentLinks } from './links';
import { documentUploadForms } from './upload-forms';

type Schema = { type?: string; properties?: Record<string, unknown>; additionalProperties?: unknown };

/** Request bodies and their search filters, and the seed resources whose fields the spec fixes exactly, allow no other properties. */
const CLOSED_SCHEMA = /(Request|Filter|^AgentRunView|^AgentRunCreated|^ErrorBody)$/;

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Pylon API')
    .setDescription(
      'Agent runs, knowledge search and video generation behind one REST API. ' +
        'Every error answers `{"error": "<code>"}`; a human-readable reason may come in the `Error-Detail` header. ' +
        'Requests with an API key are rate limited per key (429 `rate_limited` with `Retry-After`; `RateLimit-*` headers on every response).',
    )
    .setVersion('1.0.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An organisation API key `pyl_…`' }, 'apiKey')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'The operator admin token (ADMIN_TOKEN)' }, 'admin')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  document.openapi = '3.0.3';
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {}) as Array<[string, Schema]>) {
    if (CLOSED_SCHEMA.test(name) && schema.type === 'object') schema.additionalProperties = false;
  }
  documentRateLimits(document);
  documentTransportErrors(document);
  documentStorableText(document);
  documentDeploymentLimits(document, app.get(PylonConfig));
  documentLinks(document);
  documentUploadForms(document);
  return document;
}

/** `GET /integration/openapi.json` and Swagger UI at `/docs`. */
export function publishOpenApi(app: INestApplication): OpenAPIObject {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'integration/openapi.json',
    yamlDocumentUrl: 'integration/openapi.yaml',
  });
  return document;
}
