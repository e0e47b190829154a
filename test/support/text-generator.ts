/** Seeded random texts for the chunking property tests (libs/knowledge/chunking/*.test.ts). */

/** mulberry32: tiny, fast, good enough to vary inputs reproducibly. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Random = () => number;

export const int = (random: Random, min: number, max: number) => min + Math.floor(random() * (max - min + 1));
export const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];

const SYLLABLES = ['ka', 'lo', 're', 'mi', 'sun', 'ta', 'ver', 'ion', 'de', 'pra', 'st', 'qu', 'el', 'an', 'or'];
const CJK = ['日本語', 'のテキスト', 'です', '中文', '文本', '测试', '知識', 'ベース', '検索', '東京', '漢字', 'かな', '한국어', '텍스트'];
const EMOJI = ['😀', '👍🏽', '👩‍👩‍👧', '🇫🇷', '🇩🇪', '❤️', '#️⃣', '🧑‍💻'];
const MARKS = ['\u0301', '\u0300', '\u0303', '\u0308', '\u0327'];
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function latinWord(random: Random): string {
  let word = '';
  for (let i = int(random, 1, 4); i > 0; i--) word += pick(random, SYLLABLES);
  if (random() < 0.1) word = word[0].toUpperCase() + word.slice(1);
  // combining marks on a letter, sometimes stacked
  if (random() < 0.08) word = word.slice(0, 1) + pick(random, MARKS) + (random() < 0.3 ? pick(random, MARKS) : '') + word.slice(1);
  if (random() < 0.03) word += "'s";
  return word;
}

function longWord(random: Random): string {
  let blob = '';
  for (let i = int(random, 20, 600); i > 0; i--) blob += BASE64[int(random, 0, BASE64.length - 1)];
  return blob;
}

function url(random: Random): string {
  const parts = [];
  for (let i = int(random, 2, 20); i > 0; i--) parts.push(latinWord(random));
  return `https://example.com/${parts.join('/')}?q=${latinWord(random)}&page=${int(random, 1, 99)}`;
}

function sentence(random: Random): string {
  const words: string[] = [];
  const length = random() < 0.1 ? int(random, 40, 120) : int(random, 3, 18);
  for (let i = 0; i < length; i++) {
    const roll = random();
    if (roll < 0.02) words.push(longWord(random));
    else if (roll < 0.04) words.push(url(random));
    else if (roll < 0.08) words.push(pick(random, EMOJI));
    else if (roll < 0.1) words.push(String(int(random, 0, 99999)) + (random() < 0.5 ? '.5' : ''));
    else words.push(latinWord(random) + (random() < 0.08 ? ',' : ''));
  }
  const separator = random() < 0.05 ? '  ' : random() < 0.05 ? '\u00a0' : random() < 0.03 ? '\t' : ' ';
  const text = words.join(separator);
  return text[0].toUpperCase() + text.slice(1) + pick(random, ['.', '.', '.', '?', '!', '', '…', '."']);
}

function cjkSentence(random: Random): string {
  let text = '';
  for (let i = int(random, 2, 30); i > 0; i--) text += pick(random, CJK) + (random() < 0.1 ? '、' : '');
  return text + pick(random, ['。', '。', '！', '？', '']);
}

function paragraph(random: Random, newline: string): string {
  const sentences: string[] = [];
  const cjk = random() < 0.2;
  for (let i = int(random, 1, 8); i > 0; i--) sentences.push(cjk && random() < 0.8 ? cjkSentence(random) : sentence(random));
  // some paragraphs are hard-wrapped prose: single newlines inside
  const joiner = random() < 0.15 ? newline : cjk ? '' : ' ';
  return sentences.join(joiner);
}

function block(random: Random, newline: string): string {
  const roll = random();
  if (roll < 0.15) return `${'#'.repeat(int(random, 1, 6))} ${sentence(random).replace(/[.?!…"]+$/, '')}`;
  if (roll < 0.2) return `#${latinWord(random)} is a tag, not a heading`;
  if (roll < 0.22) return `####### ${latinWord(random)} has too many hashes`;
  if (roll < 0.3) {
    const items = [];
    for (let i = int(random, 2, 8); i > 0; i--) items.push(`- ${sentence(random)}`);
    return items.join(newline);
  }
  if (roll < 0.35) {
    const lines = ['```sh', `# ${latinWord(random)} comment, not a heading`, `ls -la ${latinWord(random)}`, '```'];
    return lines.join(newline);
  }
  if (roll < 0.37) return longWord(random);
  return paragraph(random, newline);
}

/** A Markdown-ish document mixing the cases the chunker must survive. */
export function generateText(random: Random, maxBlocks = 24): string {
  const newline = random() < 0.3 ? '\r\n' : '\n';
  const blocks: string[] = [];
  for (let i = int(random, 0, maxBlocks); i > 0; i--) blocks.push(block(random, newline));
  const separator = () => pick(random, [newline + newline, newline + newline, newline + '  ' + newline + newline, newline]);
  let text = '';
  for (const b of blocks) text += (text ? separator() : '') + b;
  if (random() < 0.2) text = '  ' + newline + text + newline + '   ';
  return text;
}
