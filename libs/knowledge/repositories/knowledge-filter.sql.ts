import type { ComparisonFilter, SearchFilter } from '@pylon/contracts';

/**
 * A search filter as a SQL condition on a chunk's document (alias `d`), its values bound as parameters
 * appended to `params`. Every attribute is compared as jsonb, so a value of another type never matches
 * (and never raises a cast error): numbers compare as numbers, strings by the database's collation.
 * A document without the attribute matches only `ne` and `nin`.
 */
export function filterCondition(filter: SearchFilter, params: unknown[]): string {
  if ('filters' in filter) {
    const joiner = filter.type === 'and' ? ' AND ' : ' OR ';
    return `(${filter.filters.map((child) => filterCondition(child, params)).join(joiner)})`;
  }
  return comparison(filter, params);
}

function comparison(filter: ComparisonFilter, params: unknown[]): string {
  const bind = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const attribute = filter.attribute.kind === 'title' ? 'to_jsonb(d.title)' : `(d.metadata -> ${bind(filter.attribute.key)}::text)`;
  const value = `${bind(JSON.stringify(filter.value))}::jsonb`;
  switch (filter.type) {
    case 'eq':
      return `coalesce(${attribute} = ${value}, false)`;
    case 'ne':
      return `(${attribute} IS DISTINCT FROM ${value})`;
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const operator = { gt: '>', gte: '>=', lt: '<', lte: '<=' }[filter.type];
      return `coalesce(jsonb_typeof(${attribute}) = jsonb_typeof(${value}) AND ${attribute} ${operator} ${value}, false)`;
    }
    case 'in':
      return `coalesce(${attribute} IN (SELECT jsonb_array_elements(${value})), false)`;
    case 'nin':
      return `NOT coalesce(${attribute} IN (SELECT jsonb_array_elements(${value})), false)`;
  }
}
