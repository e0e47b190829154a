import { Query, type FieldDef } from 'pg';

/** What pg's Result builds from a row description: a parser per field, and the empty row each row is copied from. */
interface RowShape {
  fields: FieldDef[];
  parsers: unknown[];
  emptyRow: object;
}

/** The fields of pg's Result that `addFields` sets (pg 8's own names: the package lock pins the version). */
interface ResultInternals {
  fields: FieldDef[];
  _parsers: unknown[];
  _prebuiltEmptyResultObject: object;
}

/** A named statement's row shapes, by statement name: one per connection, as its prepared statements are. */
export type RowShapes = Map<string, RowShape>;

function sameFields(kept: FieldDef[], described: FieldDef[]): boolean {
  if (kept.length !== described.length) return false;
  for (let i = 0; i < kept.length; i++) {
    const [a, b] = [kept[i]!, described[i]!];
    if (a.name !== b.name || a.dataTypeID !== b.dataTypeID || a.format !== b.format) return false;
  }
  return true;
}

/**
 * A named statement's Query. Each execution comes with the statement's row description, from which pg builds
 * the parsers and an empty row as a dictionary-mode object it then copies (`Result.addFields`: 13–17 µs of the
 * run read's 25 columns on `bench request-cost`). A named statement describes the same row every time, so what
 * the first description built is kept and reused while the fields match (name, type and format, one by one).
 */
export class NamedQuery extends Query {
  constructor(
    name: string,
    text: string,
    values: unknown[],
    callback: (error: Error | undefined, result: unknown) => void,
    private readonly rowShapes: RowShapes,
  ) {
    super(text, values, callback);
    (this as { name?: string }).name = name;
  }

  handleRowDescription(message: { fields: FieldDef[] }): void {
    const name = (this as { name?: string }).name!;
    const shape = this.rowShapes.get(name);
    if (shape === undefined || !sameFields(shape.fields, message.fields)) {
      (Query.prototype as unknown as { handleRowDescription(message: { fields: FieldDef[] }): void }).handleRowDescription.call(this, message);
      const result = this.result();
      this.rowShapes.set(name, { fields: message.fields, parsers: result._parsers, emptyRow: result._prebuiltEmptyResultObject });
      return;
    }
    const self = this as unknown as { _checkForMultirow(): void; _accumulateRows: boolean; callback?: unknown };
    self._checkForMultirow();
    const result = this.result();
    result.fields = message.fields;
    result._parsers = shape.parsers;
    result._prebuiltEmptyResultObject = shape.emptyRow;
    self._accumulateRows = Boolean(self.callback) || this.listenerCount('row') === 0;
  }

  private result(): ResultInternals {
    return (this as unknown as { _result: ResultInternals })._result;
  }
}
