/** What OpenAI and Anthropic take as a function name (Gemini takes these too). */
const FITS = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Providers' function names must match ^[a-zA-Z0-9_-]{1,64}$, so an MCP tool's `<server_label>.<tool>` goes out
 * as `<server_label>__<tool>` (any other character as `_`, cut to 64, numbered when two would collide) and
 * comes back under its own name, by the names this request offered. Names that fit already stay as they are.
 */
export class WireToolNames {
  private readonly wireNames = new Map<string, string>();
  private readonly ownNames = new Map<string, string>();

  constructor(names: readonly string[]) {
    for (const name of names) {
      if (FITS.test(name)) this.add(name, name);
    }
    for (const name of names) {
      if (this.wireNames.has(name)) continue;
      const base = wireForm(name);
      let wire = base;
      for (let n = 2; this.ownNames.has(wire); n++) wire = `${base.slice(0, 64 - String(n).length - 1)}_${n}`;
      this.add(name, wire);
    }
  }

  /** The name the provider sees (a name this request does not offer, e.g. an earlier turn's tool, in the same form). */
  wire(name: string): string {
    return this.wireNames.get(name) ?? (FITS.test(name) ? name : wireForm(name));
  }

  /** The tool's own name for a name the provider answered with. */
  own(wire: string): string {
    return this.ownNames.get(wire) ?? wire;
  }

  private add(name: string, wire: string): void {
    this.wireNames.set(name, wire);
    this.ownNames.set(wire, name);
  }
}

/** `<label>.<tool>` as `<label>__<tool>`, any other character a provider refuses as `_`, cut to 64. */
function wireForm(name: string): string {
  return (
    name
      .replace('.', '__')
      .replace(/[^a-zA-Z0-9_-]/g, '_')
      .slice(0, 64) || '_'
  );
}
