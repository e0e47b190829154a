import type { OpenAPIObject } from '@nestjs/swagger';
import type { PylonConfig } from '@pylon/config';
import { STORABLE_TEXT_PATTERN } from '../common/storable-json';

/**
 * Rules the server enforces on every operation, written into the document after @nestjs/swagger has
 * built it from the DTOs, so that a client or a fuzzer generating from the document meets no refusal
 * it could not have read there.
 */

type Schema = {
  type?: string;
  format?: string;
  enum?: unknown[];
  pattern?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  oneOf?: Schema[];
  $ref?: string;
};
type Parameter = { in: string; schema?: Schema };
type Response = {
  headers?: Record<string, unknown>;
  links?: Record<string, { operationId: string; parameters: Record<string, string> }>;
  [field: string]: unknown;
};
export type Operation = {
  operationId?: string;
  security?: Array<Record<string, unknown>>;
  requestBody?: unknown;
  parameters?: Parameter[];
  responses?: Record<string, Response>;
};

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } };

/** Every operation of the document, each with its responses. */
export function operationsOf(document: OpenAPIObject): Operation[] {
  return Object.values(document.paths)
    .flatMap((item) => Object.values(item) as Operation[])
    .filter((operation) => operation?.responses);
}

const integerHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

/** What every response to an API key carries (see the access guard). */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': integerHeader(
    "Requests this API key may send at once: its token bucket's size (the burst); the bucket refills at the key's sustained rate.",
  ),
  'RateLimit-Remaining': integerHeader('Requests left in the bucket now.'),
  'RateLimit-Reset': integerHeader('Seconds until the bucket is full again.'),
};

/** Every operation authenticated by an API key may answer 429 `rate_limited`, and its responses carry the RateLimit-* headers. */
export function documentRateLimits(document: OpenAPIObject): void {
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

/** What any request can meet before its operation runs (Node's parser, the router, shutdown). */
const TRANSPORT_ERRORS: Record<string, string> = {
  '400': 'invalid_request: the request is malformed (its request line, headers or query) or fails validation',
  '408': 'request_timeout: the request was not received in time',
  '414': 'uri_too_long: the URL is longer than 8 192 characters',
  '431': 'header_fields_too_large: the request line or headers exceed 16 KiB',
  '503': 'service_unavailable: this process is shutting down; retry',
};

/** 400, 408, 414, 431 and 503 on every operation; 413 and 415 on every operation that takes a body. */
export function documentTransportErrors(document: OpenAPIObject): void {
  for (const operation of operationsOf(document)) {
    const errors: Record<string, string> = { ...TRANSPORT_ERRORS };
    if (operation.requestBody) {
      errors['413'] = 'payload_too_large: the body exceeds BODY_LIMIT_BYTES';
      errors['415'] = 'unsupported_media_type: the body is not `application/json` in UTF-8';
    }
    for (const [status, description] of Object.entries(errors)) {
      operation.responses![status] ??= { description, content: ERROR_CONTENT };
    }
  }
}

/**
 * Every string a request sends must be text PostgreSQL can store (no NUL, no unpaired surrogate; see
 * storable-json): the pattern goes on each free-text string of a request schema (its search filters
 * included) and of each query parameter.
 * Strings with a format, an enum or a pattern of their own already exclude those characters.
 */
export function documentStorableText(document: OpenAPIObject): void {
  const constrain = (schema: Schema | undefined): void => {
    if (!schema || schema.$ref) return;
    if (schema.type === 'string' && !schema.format && !schema.enum && !schema.pattern) schema.pattern = STORABLE_TEXT_PATTERN;
    for (const property of Object.values(schema.properties ?? {})) constrain(property);
    for (const alternative of schema.oneOf ?? []) constrain(alternative);
    constrain(schema.items);
  };
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {}) as Array<[string, Schema]>) {
    if (name.endsWith('Request') || name.endsWith('Filter')) constrain(schema);
  }
  for (const operation of operationsOf(document)) {
    for (const parameter of operation.parameters ?? []) constrain(parameter.schema);
  }
}

/** Limits an operator sets: the document states this deployment's values. */
export function documentDeploymentLimits(document: OpenAPIObject, config: PylonConfig): void {
  const schemas = document.components?.schemas as Record<string, Schema> | undefined;
  const runTimeout = schemas?.CreateAgentVersionRequest?.properties?.run_timeout_seconds as (Schema & { maximum?: number }) | undefined;
  if (runTimeout) runTimeout.maximum = config.maxRunTimeoutSeconds;
}
