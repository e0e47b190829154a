export interface PrometheusSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface PrometheusExposition {
  /** Metric family name → its `# TYPE`. */
  types: Map<string, string>;
  samples: PrometheusSample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(?:,|$)/y;
const SUFFIXES = ['_bucket', '_sum', '_count', '_total', '_created'];

/** Go's ParseFloat, which Prometheus uses, takes NaN and Inf in any case. */
function parseValue(text: string): number {
  const lower = text.toLowerCase();
  if (lower === '+inf' || lower === 'inf') return Infinity;
  if (lower === '-inf') return -Infinity;
  if (lower === 'nan') return NaN;
  const value = Number(text);
  if (Number.isNaN(value)) throw new Error(`not a sample value: ${text}`);
  return value;
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const match = LABEL.exec(text);
    if (!match) throw new Error(`malformed labels in: ${line}`);
    labels[match[1]!] = match[2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
  }
  return labels;
}

/**
 * A strict reader of the Prometheus text exposition format (0.0.4): every line is a `# HELP`, a
 * `# TYPE` before its family's samples, or a sample whose family was declared. Throws on anything else.
 */
export function parsePrometheusText(text: string): PrometheusExposition {
  const types = new Map<string, string>();
  const samples: PrometheusSample[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const [, keyword, name, rest] = /^#\s+(HELP|TYPE)\s+(\S+)\s*(.*)$/.exec(line) ?? [];
      if (!keyword) continue;
      if (!NAME.test(name!)) throw new Error(`bad metric name: ${line}`);
      if (keyword === 'TYPE') {
        if (!['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(rest!)) throw new Error(`bad type: ${line}`);
        if (types.has(name!)) throw new Error(`type declared twice: ${line}`);
        types.set(name!, rest!);
      }
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`malformed sample: ${line}`);
    const name = match[1]!;
    const family = types.has(name)
      ? name
      : SUFFIXES.map((suffix) => (name.endsWith(suffix) ? name.slice(0, -suffix.length) : '')).find((base) => base && types.has(base));
    if (!family) throw new Error(`sample of an undeclared metric: ${line}`);
    samples.push({ name, labels: match[2] ? parseLabels(match[2], line) : {}, value: parseValue(match[3]!) });
  }
  return { types, samples };
}

/** The samples of `name` whose labels include `labels`. */
export function samplesOf(exposition: PrometheusExposition, name: string, labels: Record<string, string> = {}): PrometheusSample[] {
  return exposition.samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
}

/** The sum of the matching samples' values (0 when there are none). */
export function valueOf(exposition: PrometheusExposition, name: string, labels: Record<string, string> = {}): number {
  return samplesOf(exposition, name, labels).reduce((sum, sample) => sum + sample.value, 0);
}
