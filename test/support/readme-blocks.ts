import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The repository root, seen from dist-test/test/support/. */
const ROOT = join(__dirname, '..', '..', '..');

/** The README's code block of this language under this heading (its first), exactly as a reader copies it. */
export function readmeBlock(heading: string, language: string): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.indexOf(`\n${heading}\n`);
  if (section < 0) throw new Error(`README.md has no heading "${heading}"`);
  const start = readme.indexOf(`\n\`\`\`${language}\n`, section);
  if (start < 0) throw new Error(`README.md has no ${language} block under "${heading}"`);
  const body = start + language.length + 5;
  return readme.slice(body, readme.indexOf('\n```\n', body) + 1);
}
