/**
 * Whether UTF-8 text reads as Markdown rather than plain prose. A simple heuristic over the lines:
 * Markdown when there is an ATX heading (`# Title`), a fenced code block (``` or ~~~), a setext
 * heading (a line underlined with === or ---), or a table delimiter row (`| --- | --- |`); or, failing
 * those, when list items (`- item`, `1. item`) and inline links (`[text](url)`) both appear.
 */
export function looksLikeMarkdown(text: string): boolean {
  const lines = text.split(/\r\n?|\n/);
  let listItems = 0;
  let links = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (ATX_HEADING.test(line) || FENCE.test(line) || TABLE_DELIMITER.test(line)) return true;
    if (SETEXT_UNDERLINE.test(line) && i > 0 && lines[i - 1].trim().length > 0 && !LIST_ITEM.test(lines[i - 1])) return true;
    if (LIST_ITEM.test(line)) listItems++;
    if (INLINE_LINK.test(line)) links++;
  }
  return listItems > 0 && links > 0;
}

const ATX_HEADING = /^ {0,3}#{1,6}[ \t]+\S/;
const FENCE = /^ {0,3}(```|~~~)/;
const TABLE_DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)+\|?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-{2,})[ \t]*$/;
const LIST_ITEM = /^ {0,3}([-*+]|\d{1,9}[.)])[ \t]+\S/;
// Bounded and without nested brackets, so a line of thousands of `[` cannot make the match quadratic.
const INLINE_LINK = /\[[^[\]\n]{1,300}\]\([^()\s]{1,2000}(?:\s+"[^"\n]{0,300}")?\)/;
