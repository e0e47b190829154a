/** A piece of text on a PDF page where pdf.js put it: x, y of its baseline start (y grows upwards), its width and font size. */
export interface PositionedText {
  text: string;
  x: number;
  y: number;
  width: number;
  fontSize: number;
}

/** Items whose baselines are closer than this share a line (as a fraction of the font size). */
const SAME_LINE = 0.5;
/** A horizontal gap wider than this (in font sizes) separates table cells or columns: ` | `. */
const CELL_GAP = 1.5;
/** A gap wider than this is at least a space between words. */
const WORD_GAP = 0.15;

/** A line at least this much larger than the page's body text (the size most of its characters have) is a heading… */
const HEADING_RATIO = 1.2;
/** …unless it is longer than a heading would be. */
const HEADING_MAX_CHARS = 150;

/**
 * A page's text, one line per visual line, top to bottom: items are grouped into lines by their
 * baseline, ordered left to right, and joined with ` | ` across a wide gap (a table row's cells come
 * out as one line), a space across a word gap, nothing when they touch. A short line set clearly
 * larger than the page's body text becomes a Markdown heading (`#` from 1.6×, `##` from 1.35×, else `###`).
 */
export function pageLines(items: readonly PositionedText[]): string[] {
  const visible = items.filter((item) => item.text.trim().length > 0);
  const byRow = [...visible].sort((a, b) => b.y - a.y || a.x - b.x);
  const groups: PositionedText[][] = [];
  for (const item of byRow) {
    const line = groups.at(-1);
    const reference = line?.[0];
    if (line && reference && Math.abs(reference.y - item.y) < SAME_LINE * Math.max(reference.fontSize, item.fontSize, 1)) line.push(item);
    else groups.push([item]);
  }
  const lines = groups.map((group) => ({ text: joinLine(group), fontSize: Math.max(...group.map((item) => item.fontSize)) }));
  const body = bodyFontSize(visible);
  return lines.filter((line) => line.text.length > 0).map((line) => headingMarker(line.text, line.fontSize / body) + line.text);
}

/** The font size most of the page's characters are set in. */
function bodyFontSize(items: readonly PositionedText[]): number {
  const characters = new Map<number, number>();
  for (const item of items) {
    const size = Math.round(item.fontSize * 10) / 10;
    characters.set(size, (characters.get(size) ?? 0) + item.text.length);
  }
  let body = 0;
  let most = -1;
  for (const [size, count] of characters) if (count > most) [body, most] = [size, count];
  return Math.max(body, 1);
}

function headingMarker(text: string, ratio: number): string {
  if (ratio < HEADING_RATIO || text.length > HEADING_MAX_CHARS || text.includes(' | ')) return '';
  if (ratio >= 1.6) return '# ';
  return ratio >= 1.35 ? '## ' : '### ';
}

function joinLine(items: PositionedText[]): string {
  const sorted = [...items].sort((a, b) => a.x - b.x);
  let text = '';
  let end = -Infinity;
  for (const item of sorted) {
    const gap = item.x - end;
    const size = Math.max(item.fontSize, 1);
    if (text.length > 0) {
      if (gap > CELL_GAP * size) text = `${text.trimEnd()} | `;
      else if (gap > WORD_GAP * size && !/\s$/.test(text) && !/^\s/.test(item.text)) text += ' ';
    }
    text += text.endsWith(' | ') ? item.text.trimStart() : item.text;
    end = Math.max(end, item.x + item.width);
  }
  return text.replace(/\s+/g, ' ').trim();
}
