/**
 * The prompt as lines for drawtext: control characters dropped (tabs become spaces, CR/LF and the
 * Unicode line separators become line breaks, at most one blank line in a row), words wrapped at
 * `maxChars`, over-long words split, and at most `maxLines` lines (the last ending in "…").
 * The text is written to a file and drawn with `textfile=` and `expansion=none`, so quotes, colons,
 * backslashes and percent signs need no escaping.
 */
export function wrapPromptText(prompt: string, maxChars: number, maxLines: number): string {
  const width = Math.max(4, Math.floor(maxChars));
  const limit = Math.max(1, Math.floor(maxLines));
  const paragraphs = prompt
    .replace(/\r\n?|[\u2028\u2029\u0085]/g, '\n')
    .replace(/\t/g, ' ')

    .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, '')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim());

  const lines: string[] = [];
  for (const paragraph of paragraphs) {
    if (!paragraph) {
      if (lines.length > 0 && lines[lines.length - 1] !== '') lines.push('');
      continue;
    }
    let line = '';
    for (const word of paragraph.split(' ')) {
      for (const piece of splitLong(word, width)) {
        if (!line) line = piece;
        else if (line.length + 1 + piece.length <= width) line += ` ${piece}`;
        else {
          lines.push(line);
          line = piece;
        }
      }
    }
    lines.push(line);
  }
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) return '(no prompt)';
  if (lines.length <= limit) return lines.join('\n');
  const kept = lines.slice(0, limit);
  const last = kept[limit - 1]!;
  kept[limit - 1] = `${[...last].slice(0, width - 1).join('')}…`;
  return kept.join('\n');
}

function splitLong(word: string, width: number): string[] {
  const chars = [...word];
  if (chars.length <= width) return [word];
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += width) pieces.push(chars.slice(i, i + width).join(''));
  return pieces;
}
