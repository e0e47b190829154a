import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The repository root, seen from dist-test/test/support/. */
const ROOT = join(__dirname, '..', '..', '..');

/**
 * The code block of this language under this heading (its first) in a doc of the repository (a path from its
 * root, such as `docs/sdk.md`), exactly as a reader copies it.
 */
export function docBlock(doc: string, heading: string, language: string): string {
  const text = readFileSync(join(ROOT, doc), 'utf8');
  const section = text.indexOf(`\n${heading}\n`);
  if (section < 0) throw new Error(`${doc} has no heading "${heading}"`);
  const start = text.indexOf(`\n\`\`\`${language}\n`, section);
  if (start < 0) throw new Error(`${doc} has no ${language} block under "${heading}"`);
  const body = start + language.length + 5;
  return text.slice(body, text.indexOf('\n```\n', body) + 1);
}
