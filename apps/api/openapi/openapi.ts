import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';

type Schema = { type?: string; properties?: Record<string, unknown>; additionalProperties?: unknown };
type Response = { headers?: Record<string, unknown>; [field: string]: unknown };
type Operation = { security?: Array<Record<string, unknown>>; requestBody?: unknown; responses?: Record<string, Response> };

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } };

function operationsOf(document: OpenAPIObject): Operation[] {
  return Object.values(document.paths).flatMap((item) => Object.values(item) as Operation[]).filter((operation) => operation?.responses);
}

const integerHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

/** What every response to an API key carries (see the access guard). */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': integerHeader("Requests this API key may send at once: its token bucket's size (the burst); the bucket refills at the key's sustained rate."),
  'RateLimit-Remaining': integerHeader('Requests left in the bucket now.'),
  'RateLimit-Reset': integerHeader('Seconds until the bucket is full again.'),
};

/** Every operation authenticated by an API key may answer 429 `rate_limited`, and its responses carry the RateLimit-* headers. */
function documentRateLimits(document: OpenAPIObject): void {
  for (const operation of operationsOf(document)) {
    if (!operation.security?.some((requirement) => 'apiKey' in requirement)) continue;
    for (const [status, response] of Object.entries(operation.responses!)) {
      if (status.startsWith('2')) response.headers = { ...response.headers, ...RATE_LIMIT_HEADERS };
    }
    operation.responses!['429'] = {
      description:
        'rate_limited: wait and retry. The API key sent more requests than its rate allows, or (with the reason in `Error-Detail`) the organisation has a full backlog of queued work or has sent its test events of the minute',
      headers: { 'Retry-After': integerHeader('Seconds to wait before the next request can pass.'), ...RATE_LIMIT_HEADERS },
      content: ERROR_CONTENT,
    };
  }
}

/** Every operation that takes a body answers 415 to a body that is not JSON (see body-parsing). */
function documentUnsupportedMediaType(document: OpenAPIObject): void {
  for (const operation of operationsOf(document)) {
    if (!operation.requestBody) continue;
    operation.responses!['415'] = { description: 'unsupported_media_type: the body is not `application/json`', content: ERROR_CONTENT };
  }
}

/** Request bodies, and the seed resources whose fields the spec fixes exactly, allow no other properties. */
const CLOSED_SCHEMA = /(Request|^AgentRunView|^AgentRunCreated|^ErrorBody)$/;

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
  documentUnsupportedMediaType(document);
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
