/**
 * The rules of a schedule's timing, checked before anything is written so that a bad one is a 400 that
 * names it: a five-field cron expression (or a macro such as `@daily`), an interval of at least one
 * second, an IANA time zone.
 */

const MACROS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

interface CronField {
  name: string;
  min: number;
  max: number;
  names?: string[];
  /** The first name's number (months count from 1). */
  namesFrom?: number;
  question?: boolean;
}

const FIELDS: CronField[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31, question: true },
  { name: 'month', min: 1, max: 12, names: MONTHS, namesFrom: 1 },
  { name: 'day of week', min: 0, max: 6, names: DAYS, namesFrom: 0, question: true },
];

function value(field: CronField, text: string): number | null {
  const named = field.names?.indexOf(text.toUpperCase()) ?? -1;
  if (named >= 0) return named + field.namesFrom!;
  if (!/^\d{1,2}$/.test(text)) return null;
  const number = Number(text);
  return number >= field.min && number <= field.max ? number : null;
}

/** Why one comma-separated part of a field is not valid, or null. */
function partError(field: CronField, part: string): string | null {
  const [range, step, ...rest] = part.split('/');
  if (rest.length > 0 || range === undefined || range === '') return `${field.name} "${part}" is not a value, range or step`;
  if (step !== undefined && !(/^\d{1,2}$/.test(step) && Number(step) >= 1 && Number(step) <= field.max)) {
    return `${field.name} step "${step}" must be from 1 to ${field.max}`;
  }
  if (range === '*' || (range === '?' && field.question && step === undefined)) return null;
  const [from, to, ...more] = range.split('-');
  const start = value(field, from!);
  if (start === null || more.length > 0) return `${field.name} "${range}" must be ${field.min}-${field.max}${field.names ? ' or a name' : ''}`;
  if (to === undefined) return null;
  const end = value(field, to);
  if (end === null || end < start) return `${field.name} range "${range}" must go up within ${field.min}-${field.max}`;
  return null;
}

/** Why the cron expression is not valid, or null when it is. */
export function cronError(cron: string): string | null {
  const text = cron.trim();
  if (MACROS.has(text.toLowerCase())) return null;
  const parts = text.split(/\s+/);
  if (parts.length !== FIELDS.length)
    return `cron must have 5 fields (minute hour day-of-month month day-of-week) or be a macro such as @daily; got ${parts.length}`;
  for (const [i, field] of FIELDS.entries()) {
    for (const part of parts[i]!.split(',')) {
      const error = partError(field, part);
      if (error) return `cron ${error}`;
    }
  }
  return null;
}

/** The zone's canonical IANA name, or null when it is not one (an offset such as "+01:00" is not a zone). */
export function canonicalTimeZone(timezone: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(timezone)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: timezone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}
