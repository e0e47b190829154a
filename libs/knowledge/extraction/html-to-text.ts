import { createReadStream } from 'node:fs';
import { Parser } from 'htmlparser2';
import { BoundedText } from './bounded-text';
import { reasons } from './reasons';
import { ExtractionFailure } from './types';

/** Elements whose content is not the document's text: code, chrome around the page, embedded things. */
const DROPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'nav',
  'header',
  'footer',
  'aside',
  'form',
  'iframe',
  'object',
  'canvas',
  'button',
  'select',
]);
/** Elements that start and end a block of text. */
const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'blockquote',
  'ul',
  'ol',
  'dl',
  'dt',
  'dd',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'figure',
  'figcaption',
  'address',
  'hr',
  'details',
  'summary',
  'caption',
  'body',
  'center',
  'fieldset',
  'legend',
]);
const HEADING = /^h([1-6])$/;
/**
 * Pages nest tens of elements deep, rarely hundreds. The parser's work per tag grows with the depth
 * (its stack of open elements), so a file nested 200 000 deep would take minutes: refused past this.
 */
const MAX_NESTING = 2_000;

type Block = { kind: 'paragraph' } | { kind: 'heading'; level: number } | { kind: 'item'; depth: number } | { kind: 'pre' };

/**
 * HTML to Markdown-flavoured text as it streams in: headings become `#` lines, paragraphs are separated
 * by blank lines, list items become `- item`, each table row one line of cells joined by ` | `, `<pre>`
 * a fenced block. Scripts, styles, navigation, headers, footers, forms and comments are dropped, entities
 * decoded, whitespace collapsed. `<title>` becomes the first heading when the body has no `<h1>`.
 */
export class HtmlToText {
  private readonly output: BoundedText;
  private readonly parser: Parser;
  private droppedDepth = 0;
  private listDepth = 0;
  private block: Block = { kind: 'paragraph' };
  private inline = '';
  private row: string[] | null = null;
  private rowChars = 0;
  private cell: string | null = null;
  private inTitle = false;
  private title = '';
  private sawH1 = false;
  private preDepth = 0;
  private nesting = 0;

  constructor(private readonly maxChars: number) {
    this.output = new BoundedText(maxChars);
    this.parser = new Parser(
      {
        onopentag: (name) => this.open(name),
        onclosetag: (name) => this.close(name),
        ontext: (text) => this.text(text),
      },
      { decodeEntities: true, lowerCaseTags: true },
    );
  }

  write(html: string): void {
    this.parser.write(html);
  }

  /** The text so far, with the title heading in front when there is no h1. */
  end(): string {
    this.parser.end();
    this.flushBlock();
    const body = this.output.toString().trim();
    const title = collapse(this.title).trim();
    const text = !this.sawH1 && title ? `# ${title}\n\n${body}` : body;
    if (text.length > this.maxChars) throw new ExtractionFailure(reasons.tooMuchText(this.maxChars));
    return text ? `${text}\n` : '';
  }

  private open(name: string): void {
    if (++this.nesting > MAX_NESTING) throw new ExtractionFailure(reasons.nestedTooDeep(MAX_NESTING));
    if (name === 'title' && this.droppedDepth === 0 && !this.title) this.inTitle = true;
    if (DROPPED.has(name)) {
      this.droppedDepth++;
      return;
    }
    if (this.droppedDepth > 0) return;
    if (this.cell !== null && name !== 'td' && name !== 'th' && name !== 'tr') {
      // Inside a table cell, paragraphs, line breaks and the like only separate words: the row stays one line.
      if (name === 'br' || BLOCKS.has(name) || HEADING.test(name) || name === 'li') this.addText(' ');
      return;
    }
    const heading = HEADING.exec(name);
    if (heading) {
      this.startBlock({ kind: 'heading', level: Number(heading[1]) });
      if (heading[1] === '1') this.sawH1 = true;
    } else if (name === 'li') {
      this.startBlock({ kind: 'item', depth: Math.max(this.listDepth - 1, 0) });
    } else if (name === 'ul' || name === 'ol') {
      this.startBlock({ kind: 'paragraph' });
      this.listDepth++;
    } else if (name === 'pre') {
      this.startBlock({ kind: 'pre' });
      this.preDepth++;
    } else if (name === 'tr') {
      this.startBlock({ kind: 'paragraph' });
      this.row = [];
    } else if ((name === 'td' || name === 'th') && this.row) {
      this.endCell();
      this.cell = '';
    } else if (name === 'br') {
      this.addText('\n');
    } else if (BLOCKS.has(name)) {
      this.startBlock({ kind: 'paragraph' });
    }
  }

  private close(name: string): void {
    this.nesting = Math.max(this.nesting - 1, 0);
    if (name === 'title') this.inTitle = false;
    if (DROPPED.has(name)) {
      this.droppedDepth = Math.max(this.droppedDepth - 1, 0);
      return;
    }
    if (this.droppedDepth > 0) return;
    if (this.cell !== null && name !== 'td' && name !== 'th' && name !== 'tr') {
      if (BLOCKS.has(name) || HEADING.test(name) || name === 'li') this.addText(' ');
      return;
    }
    if (HEADING.test(name) || name === 'li') {
      this.startBlock({ kind: 'paragraph' });
    } else if (name === 'ul' || name === 'ol') {
      this.listDepth = Math.max(this.listDepth - 1, 0);
      this.startBlock({ kind: 'paragraph' });
    } else if (name === 'pre') {
      this.preDepth = Math.max(this.preDepth - 1, 0);
      this.startBlock({ kind: 'paragraph' });
    } else if (name === 'td' || name === 'th') {
      this.endCell();
    } else if (name === 'tr') {
      this.endRow();
    } else if (BLOCKS.has(name)) {
      this.startBlock({ kind: 'paragraph' });
    }
  }

  private text(text: string): void {
    if (this.inTitle) {
      if (this.title.length < 1000) this.title += text;
      return;
    }
    if (this.droppedDepth > 0) return;
    // Source line breaks are spaces; only <br> (added as \n) and <pre> keep lines.
    this.addText(this.preDepth > 0 ? text : collapse(text));
  }

  private addText(text: string): void {
    if (this.cell !== null) this.cell += text;
    else if (this.row === null) this.inline += text;
    if (this.inline.length + (this.cell?.length ?? 0) > this.maxChars) throw new ExtractionFailure(reasons.tooMuchText(this.maxChars));
  }

  private endCell(): void {
    if (this.cell === null || !this.row) return;
    const cell = collapse(this.cell).trim();
    this.row.push(cell);
    this.cell = null;
    this.rowChars += cell.length + 3;
    if (this.rowChars > this.maxChars) throw new ExtractionFailure(reasons.tooMuchText(this.maxChars));
  }

  private endRow(): void {
    this.endCell();
    const cells = this.row ?? [];
    this.row = null;
    this.rowChars = 0;
    if (cells.some((cell) => cell.length > 0)) this.emitLine(cells.join(' | ').trimEnd(), 'row');
  }

  private startBlock(next: Block): void {
    this.flushBlock();
    this.block = next;
  }

  private flushBlock(): void {
    if (this.row) this.endRow();
    const block = this.block;
    const raw = this.inline;
    this.inline = '';
    if (block.kind === 'pre') {
      const code = raw.replace(/^\n/, '').replace(/\s+$/, '');
      if (code.trim()) this.emitLine('```\n' + code + '\n```', 'block');
      return;
    }
    const lines = raw
      .split('\n')
      .map((line) => collapse(line).trim())
      .filter((line) => line.length > 0);
    if (lines.length === 0) return;
    if (block.kind === 'heading') this.emitLine(`${'#'.repeat(block.level)} ${lines.join(' ')}`, 'block');
    else if (block.kind === 'item') this.emitLine(`${'  '.repeat(block.depth)}- ${lines.join(' ')}`, 'item');
    else this.emitLine(lines.join('\n'), 'block');
  }

  private lastLineKind: 'block' | 'row' | 'item' | null = null;

  /** Table rows follow each other line by line, as do list items; anything else is set off by a blank line. */
  private emitLine(line: string, kind: 'block' | 'row' | 'item'): void {
    if (this.lastLineKind !== null) this.output.append(kind !== 'block' && kind === this.lastLineKind ? '\n' : '\n\n');
    this.output.append(line);
    this.lastLineKind = kind;
  }
}

function collapse(text: string): string {
  return text.replace(/[ \t\n\r\f\u00a0]+/g, ' ');
}

/** Converts an HTML file, streaming it through the parser. */
export async function htmlFileToText(path: string, maxChars: number, signal?: AbortSignal): Promise<string> {
  const converter = new HtmlToText(maxChars);
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 64 * 1024, signal })) {
    converter.write(chunk as string);
  }
  return converter.end();
}

export function htmlToText(html: string, maxChars: number): string {
  const converter = new HtmlToText(maxChars);
  converter.write(html);
  return converter.end();
}
