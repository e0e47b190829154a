import { ExtractionFailure } from './types';
import { reasons } from './reasons';

/** Output text that refuses to grow past a limit: the one place every extractor's output goes through. */
export class BoundedText {
  private readonly parts: string[] = [];
  private size = 0;

  constructor(private readonly maxChars: number) {}

  get length(): number {
    return this.size;
  }

  append(text: string): void {
    if (text.length === 0) return;
    this.size += text.length;
    if (this.size > this.maxChars) throw new ExtractionFailure(reasons.tooMuchText(this.maxChars));
    this.parts.push(text);
  }

  toString(): string {
    return this.parts.join('');
  }
}

/** The text as the chunker wants it, or the "no text" failure when nothing but whitespace is left. */
export function requireText(text: string): string {
  if (text.trim().length === 0) throw new ExtractionFailure(reasons.noText);
  return text;
}
