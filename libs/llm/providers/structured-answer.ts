import { statedValue } from './function-arguments';

type PropertySchema = { type?: unknown; enum?: unknown[] };
const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean']);

/**
 * Why the offline model cannot fill `schema`, or null: it fills only an object whose properties are
 * strings, numbers, integers, booleans or enums of such values.
 */
export function unfillableSchemaFault(schema: Record<string, unknown>): string | null {
  if (schema.type !== 'object') return 'the schema must be an object (type "object")';
  const properties = schema.properties;
  if (typeof properties !== 'object' || properties === null || Object.keys(properties).length === 0) {
    return 'the schema must name its properties';
  }
  for (const [name, property] of Object.entries(properties as Record<string, PropertySchema>)) {
    const scalarEnum = Array.isArray(property.enum) && property.enum.every((value) => ['string', 'number', 'boolean'].includes(typeof value));
    if (!scalarEnum && !(typeof property.type === 'string' && SCALAR_TYPES.has(property.type))) {
      return `property ${name} is ${describe(property)}; it fills only strings, numbers, integers, booleans and enums`;
    }
  }
  return null;
}

function describe(property: PropertySchema): string {
  if (Array.isArray(property.type)) return `of several types (${property.type.join(', ')})`;
  return typeof property.type === 'string' ? `a${/^[aeiou]/.test(property.type) ? 'n' : ''} ${property.type}` : 'of no single type';
}

/**
 * The offline model's structured answer (rule documented in docs/agents.md, Structured outputs), property by property:
 * a value stated in the input as `<name>: value` (as for function arguments) wins; else
 * - an enum: the first of its values the answer names, then the input, else its first value;
 * - a string: the extractive answer's text;
 * - a number or integer: the first number in the answer;
 * - a boolean: whether the answer drew on anything (tool outputs, the conversation, the knowledge base).
 * Nothing else is invented: a property it cannot fill is left out, and the schema check says so.
 */
export function fillSchema(schema: Record<string, unknown>, input: string, answer: string, grounded: boolean): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, PropertySchema>;
  const filled: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const value = valueFor(name, property, input, answer, grounded);
    if (value !== undefined) filled[name] = value;
  }
  return filled;
}

function valueFor(name: string, property: PropertySchema, input: string, answer: string, grounded: boolean): unknown {
  const stated = statedValue(input, name);
  if (property.enum) {
    const named = (text: string) => property.enum!.find((value) => new RegExp(`\\b${escape(String(value))}\\b`, 'i').test(text));
    return property.enum.find((value) => String(value) === stated) ?? named(answer) ?? named(input) ?? property.enum[0];
  }
  switch (property.type) {
    case 'string':
      return stated ?? answer;
    case 'number':
    case 'integer': {
      const number = [stated, ...(withoutIds(answer).match(/-?\d+(?:\.\d+)?/g) ?? [])]
        .filter((text): text is string => text !== null && text.trim() !== '' && Number.isFinite(Number(text)))
        .map(Number)
        .find((candidate) => property.type === 'number' || Number.isInteger(candidate));
      return number;
    }
    case 'boolean':
      if (stated && /^(true|yes)$/i.test(stated)) return true;
      if (stated && /^(false|no)$/i.test(stated)) return false;
      return grounded;
    default:
      return undefined;
  }
}

/** The answer without the ids it cites, whose digits are no figures. */
function withoutIds(text: string): string {
  return text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '');
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
