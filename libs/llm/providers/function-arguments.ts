/**
 * How the offline model fills a function tool's arguments from the input, by the tool's JSON Schema
 * (documented in docs/agents.md, A conversation with tools): for each property, in the schema's order,
 * 1. `<name>: value`, `<name> = value`, `<name> is value` or `<name> value`, where `<name>` is the
 *    property's name, with `_` read as a space too, or its stem without `_id` (`order 42` fills `order_id`);
 *    the value is a quoted string or the next word;
 * 2. else, for an `enum`, the first of its values that the input names;
 * 3. else, for a required string, the whole input.
 * Numbers, integers and booleans are converted when the text reads as one; nothing is invented otherwise.
 */
export function argumentsFromInput(input: string, schema: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown; enum?: unknown[] }>;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const args: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const stated = statedValue(input, name);
    if (stated !== null) {
      args[name] = converted(stated, property.type);
      continue;
    }
    const named = property.enum?.find((value) => new RegExp(`\\b${escape(String(value))}\\b`, 'i').test(input));
    if (named !== undefined) args[name] = named;
    else if (required.has(name) && (property.type === 'string' || property.type === undefined)) args[name] = input;
  }
  return args;
}

/** The value the input states for `name` (`<name>: value` and the other forms above), or null. */
export function statedValue(input: string, name: string): string | null {
  const variants = new Set([name, name.replace(/[_-]+/g, ' ')]);
  if (/_id$/i.test(name)) variants.add(name.slice(0, -3).replace(/[_-]+/g, ' '));
  const alternatives = [...variants].map(escape).join('|');
  const found = new RegExp(`(?<![\\w])(?:${alternatives})\\s*(?::|=|\\bis\\b)?\\s*(?:"([^"]*)"|'([^']*)'|#?([^\\s,;"']+))`, 'i').exec(input);
  if (!found) return null;
  return (found[1] ?? found[2] ?? found[3]!.replace(/[.?!)]+$/, '')) || null;
}

function converted(text: string, type: unknown): unknown {
  if ((type === 'number' || type === 'integer') && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (type === 'boolean' && /^(true|yes)$/i.test(text)) return true;
  if (type === 'boolean' && /^(false|no)$/i.test(text)) return false;
  return text;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whether the input names the tool: its name as written, or with `_` and `-` read as spaces; `bare`: not
 * right after a dot (so `shop.lookup_order` does not name a bare `lookup_order`).
 */
export function inputNamesTool(input: string, toolName: string, { bare = false }: { bare?: boolean } = {}): boolean {
  const spaced = toolName.replace(/[_-]+/g, ' ');
  const before = bare ? '(?<![\\w.])' : '(?<![\\w])';
  return new RegExp(`${before}(?:${escape(toolName)}|${escape(spaced)})(?![\\w])`, 'i').test(input);
}
