import {
  PylonError,
  COMPOUND_OPERATORS,
  EQUALITY_OPERATORS,
  RANGE_OPERATORS,
  SET_OPERATORS,
  type ComparisonFilter,
  type FilterScalar,
  type SearchFilter,
} from '@pylon/contracts';

export const FILTER_LIMITS = {
  /** Compound filters inside compound filters. */
  maxDepth: 5,
  /** Comparisons in the whole filter. */
  maxComparisons: 50,
  maxSetValues: 100,
  maxKeyChars: 256,
  maxStringChars: 1_000,
} as const;

const METADATA_PREFIX = 'metadata.';

/**
 * Validates a search filter given as JSON (OpenAI's attribute-filter shape: `{type, key, value}` or
 * `{type: "and"|"or", filters: [...]}`) into a SearchFilter, or refuses it with a 400 `invalid_request`
 * whose `Error-Detail` names the offending path.
 */
export function parseSearchFilter(input: unknown, path = 'filters'): SearchFilter {
  const counter = { comparisons: 0 };
  return parseNode(input, path, 0, counter);
}

function parseNode(input: unknown, path: string, depth: number, counter: { comparisons: number }): SearchFilter {
  if (!isPlainObject(input)) throw invalid(path, 'must be an object');
  const type = input.type;
  if (typeof type !== 'string') throw invalid(`${path}.type`, 'must be one of eq, ne, gt, gte, lt, lte, in, nin, and, or');
  if (isOneOf(type, COMPOUND_OPERATORS)) {
    onlyProperties(input, path, ['type', 'filters']);
    if (depth >= FILTER_LIMITS.maxDepth) throw invalid(path, `nests compound filters deeper than ${FILTER_LIMITS.maxDepth}`);
    const filters = input.filters;
    if (!Array.isArray(filters) || filters.length === 0) throw invalid(`${path}.filters`, 'must be a non-empty array');
    return { type, filters: filters.map((child, index) => parseNode(child, `${path}.filters[${index}]`, depth + 1, counter)) };
  }
  onlyProperties(input, path, ['type', 'key', 'value']);
  if (++counter.comparisons > FILTER_LIMITS.maxComparisons)
    throw invalid(path, `the filter has more than ${FILTER_LIMITS.maxComparisons} comparisons`);
  const attribute = parseAttribute(input.key, `${path}.key`);
  if (isOneOf(type, EQUALITY_OPERATORS)) return { type, attribute, value: scalar(input.value, `${path}.value`, ['string', 'number', 'boolean']) };
  if (isOneOf(type, RANGE_OPERATORS)) return { type, attribute, value: scalar(input.value, `${path}.value`, ['string', 'number']) };
  if (isOneOf(type, SET_OPERATORS)) {
    const values = input.value;
    if (!Array.isArray(values) || values.length === 0 || values.length > FILTER_LIMITS.maxSetValues) {
      throw invalid(`${path}.value`, `must be an array of 1 to ${FILTER_LIMITS.maxSetValues} strings, numbers or booleans`);
    }
    return { type, attribute, value: values.map((value, index) => scalar(value, `${path}.value[${index}]`, ['string', 'number', 'boolean'])) };
  }
  throw invalid(`${path}.type`, 'must be one of eq, ne, gt, gte, lt, lte, in, nin, and, or');
}

function parseAttribute(key: unknown, path: string): ComparisonFilter['attribute'] {
  if (typeof key !== 'string' || key.length === 0 || key.length > FILTER_LIMITS.maxKeyChars) {
    throw invalid(path, `must be a string of 1 to ${FILTER_LIMITS.maxKeyChars} characters`);
  }
  if (key === 'title') return { kind: 'title' };
  const metadataKey = key.startsWith(METADATA_PREFIX) ? key.slice(METADATA_PREFIX.length) : key;
  if (metadataKey.length === 0) throw invalid(path, 'names no metadata key');
  return { kind: 'metadata', key: metadataKey };
}

function scalar(value: unknown, path: string, allowed: ReadonlyArray<'string' | 'number' | 'boolean'>): FilterScalar {
  const kind = typeof value;
  if (kind === 'string' && allowed.includes('string')) {
    if ((value as string).length > FILTER_LIMITS.maxStringChars) throw invalid(path, `is longer than ${FILTER_LIMITS.maxStringChars} characters`);
    return value as string;
  }
  if (kind === 'number' && allowed.includes('number') && Number.isFinite(value)) return value as number;
  if (kind === 'boolean' && allowed.includes('boolean')) return value as boolean;
  throw invalid(path, `must be a ${allowed.join(' or ')}`);
}

function onlyProperties(input: Record<string, unknown>, path: string, allowed: string[]): void {
  for (const name of Object.keys(input)) {
    if (!allowed.includes(name)) throw invalid(path, `has an unknown property (only ${allowed.join(', ')})`);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isOneOf<T extends string>(value: string, options: readonly T[]): value is T {
  return (options as readonly string[]).includes(value);
}

function invalid(path: string, reason: string): PylonError {
  return PylonError.invalidRequest(`${path} ${reason}`);
}
