import { prepared } from './prepared-statements';

/** A statement's parameter as it declares it: its SQL type, and how its value is read from the statement's input. */
export interface ParameterDeclaration<In> {
  readonly kind: 'parameter';
  readonly type: string;
  readonly value: (input: In) => unknown;
}

/** A statement's parameters by name: each one a parameter, or a group of them (a part's values, e.g. a turn's usage). */
export type Declarations<In> = { readonly [name: string]: ParameterDeclaration<In> | Declarations<In> };

/** A declared parameter in the statement's text: `$n::type`, its position given by where it was declared. */
export class Parameter {
  constructor(
    readonly position: number,
    readonly type: string,
    private readonly used: Set<number>,
  ) {}

  toString(): string {
    this.used.add(this.position);
    return `$${this.position}::${this.type}`;
  }
}

/** The parameters a statement's text refers to, by the names (and groups) it declared them under. */
export type Parameters<D> = { readonly [K in keyof D]: D[K] extends ParameterDeclaration<never> ? Parameter : Parameters<D[K]> };

/** A parameter of type `type` whose value `value` reads from the statement's input. */
export function parameter<In>(type: string, value: (input: In) => unknown): ParameterDeclaration<In> {
  return { kind: 'parameter', type, value };
}

function isParameter<In>(declaration: ParameterDeclaration<In> | Declarations<In>): declaration is ParameterDeclaration<In> {
  return (declaration as ParameterDeclaration<In>).kind === 'parameter';
}

/** A statement's text and how to read its values, in the order of its $n, from its input. */
export interface Statement<In> {
  readonly text: string;
  values(input: In): unknown[];
}

/**
 * A statement of named, typed parameters: `declared` names each one (or a group, e.g. a part's values) with its type
 * and how its value is read from the input; `text` writes the statement, and its parts, with the parameters by name.
 * The $n of each parameter and the order of the values both come from the declaration, so they cannot drift; a
 * declared parameter the text never uses is refused. With `prepare`, the text is marked for preparing (`prepared`).
 */
export function statement<In>(): <D extends Declarations<In>>(
  declared: D,
  text: (parameters: Parameters<D>) => string,
  options?: { prepare?: boolean },
) => Statement<In> {
  return (declared, text, options = {}) => {
    const used = new Set<number>();
    const readers: Array<(input: In) => unknown> = [];
    const refer = (declarations: Declarations<In>): Record<string, unknown> =>
      Object.fromEntries(
        Object.entries(declarations).map(([name, declaration]) => {
          if (!isParameter(declaration)) return [name, refer(declaration)];
          readers.push(declaration.value);
          return [name, new Parameter(readers.length, declaration.type, used)];
        }),
      );
    const parameters = refer(declared) as Parameters<typeof declared>;
    let sql = text(parameters);
    const unused = readers.map((_, index) => index + 1).filter((position) => !used.has(position));
    if (unused.length > 0) throw new Error(`statement parameters ${unused.map((n) => `$${n}`).join(', ')} are declared but never used: ${sql}`);
    if (options.prepare) sql = prepared(sql);
    return { text: sql, values: (input) => readers.map((read) => read(input)) };
  };
}
