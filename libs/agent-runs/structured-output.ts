import Ajv, { type ValidateFunction } from 'ajv';
import { LRUCache } from 'lru-cache';
import type { AgentVersion } from '@pylon/db';

const VALIDATOR_CACHE_SIZE = 1_000;
/** Compiled once per version (versions never change); `strict: false`: the schema was checked at creation. */
const ajv = new Ajv({ strict: false, allErrors: false });
const validators = new LRUCache<string, ValidateFunction>({ max: VALIDATOR_CACHE_SIZE });

function validatorOf(version: AgentVersion): ValidateFunction {
  let validate = validators.get(version.id);
  if (!validate) {
    validate = ajv.compile(version.responseFormat!.schema);
    validators.set(version.id, validate);
  }
  return validate;
}

/** An answer checked against its version's JSON Schema: the parsed value, or the fault as `<path> <message>`. */
export type CheckedAnswer = { ok: true; value: unknown } | { ok: false; fault: string };

export function checkAnswer(version: AgentVersion, text: string): CheckedAnswer {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, fault: `/ is not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const validate = validatorOf(version);
  if (validate(value)) return { ok: true, value };
  const [first] = validate.errors ?? [];
  return { ok: false, fault: first ? `${first.instancePath || '/'} ${first.message ?? 'is invalid'}` : '/ is invalid' };
}
