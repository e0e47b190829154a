import Ajv from 'ajv';
import { PylonError, RESPONSE_FORMAT_NAME_PATTERN, type JsonSchemaResponseFormat } from '@pylon/contracts';

/** A version's `response_format` as asked for (the API's DTO checks its shape). */
export interface ResponseFormatRequest {
  type: 'json_schema';
  name: string;
  schema: Record<string, unknown>;
  strict?: boolean;
}

const NAME = new RegExp(RESPONSE_FORMAT_NAME_PATTERN);
/** Strict, so a misspelt keyword is named rather than ignored. */
const schemaCompiler = new Ajv({ strict: true, allErrors: false, validateSchema: true });

/**
 * The structured output as stored: a name OpenAI takes and a schema Ajv compiles; `schemaFault` says why
 * the version's model cannot answer in it (the offline models fill only flat objects). 400 naming the fault.
 */
export function versionResponseFormat(
  requested: ResponseFormatRequest | null | undefined,
  schemaFault: (schema: Record<string, unknown>) => string | null,
): JsonSchemaResponseFormat | null {
  if (!requested) return null;
  if (!NAME.test(requested.name)) throw PylonError.invalidRequest(`response_format.name: must match ${RESPONSE_FORMAT_NAME_PATTERN}`);
  try {
    schemaCompiler.compile(requested.schema);
  } catch (error) {
    throw PylonError.invalidRequest(`response_format.schema: is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`);
  }
  const fault = schemaFault(requested.schema);
  if (fault) throw PylonError.invalidRequest(`response_format.schema: ${fault}`);
  return { type: 'json_schema', name: requested.name, schema: requested.schema, strict: requested.strict ?? true };
}
