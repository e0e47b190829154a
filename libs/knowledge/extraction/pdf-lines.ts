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

/**
 * A page's text, one line per visual line, top to bottom: items are grouped into lines by their
 * baseline, ordered left to right, and joined with ` | ` across a wide gap (a table row's cells come
 * out as one line), a space across a word gap, nothing when they touch.
 */
export function pageLines(items: readonly PositionedText[]): string[] {
  const visible = items.filter((item) => item.text.trim().length > 0);
  const byRow = [...visible].sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: PositionedText[][] = [];
  for (const item of byRow) {
    const line = lines.at(-1);
    const reference = line?.[0];
    if (line && reference && Math.abs(reference.y - item.y) < SAME_LINE * Math.max(reference.fontSize, item.fontSize, 1)) line.push(item);
    else lines.push([item]);
  }
  return lines.map(joinLine).filter((line) => line.length > 0);
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
