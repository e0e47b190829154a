/**
 * Files built to hurt a parser, for the hostile-file tests: Flate bombs in a page's content, an image and
 * an object stream, a page tree too big, nesting too deep, an XObject that draws itself, a font program
 * of garbage, Word files with nested and external entities, deeply nested HTML, one huge Markdown line.
 * Each is made here, by hand, because no library would write them.
 */
import { randomBytes } from 'node:crypto';
import { constants, deflateRawSync } from 'node:zlib';
import { WORD_CONTENT_TYPES, deflatedEntry, zipBytes } from './zip-writer';

const MIB = 1024 * 1024;

export interface HostileFile {
  name: string;
  fileName: string;
  bytes: Buffer;
}

/** A PDF of the given objects (object n is objects[n - 1]), its cross-reference table and trailer; object 1 is the catalog. */
export function pdfOfObjects(objects: ReadonlyArray<string | Buffer>): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(offset);
    const bytes = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), Buffer.from(object), Buffer.from('\nendobj\n')]);
    parts.push(bytes);
    offset += bytes.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n`,
    '0000000000 65535 f \n',
    ...offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n \n`),
  ].join('');
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`));
  return Buffer.concat(parts);
}

/** A stream object: its dictionary entries (without /Length) and its bytes as stored. */
export function streamObject(dictionary: string, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`<< ${dictionary} /Length ${data.length} >>\nstream\n`), data, Buffer.from('\nendstream')]);
}

/**
 * A zlib stream (what /FlateDecode reads) that inflates to `mebibytes` MiB of `unit` repeated, built
 * without holding the inflated bytes: one MiB deflated with a full flush (byte-aligned, dictionary reset,
 * so the block repeats as it is), then an empty final block. Its Adler-32 is 0: nothing reads it to its end.
 */
export function flateBomb(unit: string, mebibytes: number, prefix = ''): Buffer {
  const fullFlush = { finishFlush: constants.Z_FULL_FLUSH };
  const block = Buffer.from(unit.repeat(Math.floor(MIB / unit.length)), 'latin1');
  const oneMebibyte = deflateRawSync(block, fullFlush);
  const start = prefix ? [deflateRawSync(Buffer.from(prefix, 'latin1'), fullFlush)] : [];
  return Buffer.concat([
    Buffer.from([0x78, 0x9c]),
    ...start,
    ...Array.from({ length: mebibytes }, () => oneMebibyte),
    Buffer.from([0x03, 0x00, 0, 0, 0, 0]),
  ]);
}

const CATALOG = '<< /Type /Catalog /Pages 2 0 R >>';
const ONE_PAGE = '<< /Type /Pages /Kids [3 0 R] /Count 1 >>';
const HELVETICA = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
const TEXT = (words: string) => Buffer.from(`BT /F1 12 Tf 50 700 Td (${words}) Tj ET`);

function page(resources: string, extra = ''): string {
  return `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> ${resources} >> /Contents 5 0 R ${extra}>>`;
}

export function contentStreamBomb(mebibytes = 256): Buffer {
  const content = streamObject('/Filter /FlateDecode', flateBomb('BT /F1 12 Tf 50 700 Td (bomb) Tj ET\n', mebibytes));
  return pdfOfObjects([CATALOG, ONE_PAGE, page(''), HELVETICA, content]);
}

export function imageBomb(mebibytes = 300): Buffer {
  const side = Math.ceil(Math.sqrt((mebibytes * MIB) / 3));
  const image = streamObject(
    `/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode`,
    flateBomb('\0', mebibytes),
  );
  const content = Buffer.concat([TEXT('A page with a picture'), Buffer.from(` q ${side} 0 0 ${side} 0 0 cm /Im1 Do Q`)]);
  return pdfOfObjects([CATALOG, ONE_PAGE, page('/XObject << /Im1 6 0 R >>'), HELVETICA, streamObject('', content), image]);
}

/** Object 6 lives in an object stream whose data is a few bytes of index and then hundreds of MiB of spaces. */
export function objectStreamBomb(mebibytes = 300): Buffer {
  const index = '6 0 ';
  const objectStream = streamObject(`/Type /ObjStm /N 1 /First ${index.length} /Filter /FlateDecode`, flateBomb(' ', mebibytes, index));
  return pdfOfObjects([CATALOG, ONE_PAGE, page('', '/Extra 6 0 R '), HELVETICA, streamObject('', TEXT('Hello')), '<< >>', objectStream]);
}

/** A page tree of `pages` leaves sharing one content stream. */
export function hugePageTree(pages = 30_000): Buffer {
  const first = 6;
  const kids = Array.from({ length: pages }, (_, i) => `${first + i} 0 R`).join(' ');
  const leaves = Array.from({ length: pages }, () => page(''));
  return pdfOfObjects([CATALOG, `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`, '<< >>', HELVETICA, streamObject('', TEXT('page')), ...leaves]);
}

export function deeplyNestedArrays(depth = 100_000): Buffer {
  return pdfOfObjects([CATALOG, ONE_PAGE, page('', `/Deep ${'['.repeat(depth)}${']'.repeat(depth)} `), HELVETICA, streamObject('', TEXT('Nested'))]);
}

export function deeplyNestedDictionaries(depth = 100_000): Buffer {
  return pdfOfObjects([
    CATALOG,
    ONE_PAGE,
    page('', `/Deep ${'<< /A '.repeat(depth)}1${' >>'.repeat(depth)} `),
    HELVETICA,
    streamObject('', TEXT('Nested')),
  ]);
}

/** A form XObject whose content draws the form itself. */
export function selfDrawingXObject(): Buffer {
  const form = streamObject(
    '/Type /XObject /Subtype /Form /BBox [0 0 595 842] /Resources << /XObject << /X1 6 0 R >> /Font << /F1 4 0 R >> >>',
    Buffer.from('/X1 Do'),
  );
  const content = Buffer.concat([TEXT('Drawn before the loop'), Buffer.from(' /X1 Do')]);
  return pdfOfObjects([CATALOG, ONE_PAGE, page('/XObject << /X1 6 0 R >>'), HELVETICA, streamObject('', content), form]);
}

/** Text set in a TrueType font whose program is random bytes. */
export function garbageFontProgram(): Buffer {
  const font = '<< /Type /Font /Subtype /TrueType /BaseFont /Garbage /FirstChar 32 /LastChar 126 /FontDescriptor 6 0 R >>';
  const descriptor =
    '<< /Type /FontDescriptor /FontName /Garbage /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile2 7 0 R >>';
  return pdfOfObjects([
    CATALOG,
    ONE_PAGE,
    page(''),
    font,
    streamObject('', TEXT('Set in a broken font')),
    descriptor,
    streamObject('', randomBytes(256 * 1024)),
  ]);
}

function wordFileOf(documentXml: string): Buffer {
  return zipBytes([WORD_CONTENT_TYPES, deflatedEntry('word/document.xml', documentXml)]);
}

const WORD_NAMESPACE = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/** The billion laughs: ten entities, each ten of the one before. */
export function wordNestedEntities(): Buffer {
  const entities = ['<!ENTITY lol0 "lol">', ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`)].join('');
  return wordFileOf(
    `<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE w:document [${entities}]><w:document ${WORD_NAMESPACE}><w:body><w:p><w:r><w:t>Laughs: &lol9;</w:t></w:r></w:p></w:body></w:document>`,
  );
}

/** An external entity naming a file on the server. */
export function wordExternalEntity(): Buffer {
  return wordFileOf(
    `<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE w:document [<!ENTITY secret SYSTEM "file:///etc/passwd">]><w:document ${WORD_NAMESPACE}><w:body><w:p><w:r><w:t>Secret: &secret;</w:t></w:r></w:p></w:body></w:document>`,
  );
}

export function deeplyNestedHtml(depth = 200_000): Buffer {
  return Buffer.from(
    `<!DOCTYPE html><html><head><title>Deep</title></head><body>${'<div>'.repeat(depth)}The bottom of the page.${'</div>'.repeat(depth)}</body></html>`,
  );
}

export function singleLineMarkdown(mebibytes = 5): Buffer {
  return Buffer.from(`# One line\n\n${'word '.repeat((mebibytes * MIB) / 5)}`);
}

/** The whole corpus, in the order the tests upload it. */
export function hostileCorpus(): HostileFile[] {
  const pdf = (name: string, bytes: Buffer) => ({ name, fileName: `${name}.pdf`, bytes });
  return [
    pdf('content-stream-bomb', contentStreamBomb()),
    pdf('image-bomb', imageBomb()),
    pdf('object-stream-bomb', objectStreamBomb()),
    pdf('30000-page-tree', hugePageTree()),
    pdf('nested-arrays', deeplyNestedArrays()),
    pdf('nested-dictionaries', deeplyNestedDictionaries()),
    pdf('self-drawing-xobject', selfDrawingXObject()),
    pdf('garbage-font-program', garbageFontProgram()),
    { name: 'word-nested-entities', fileName: 'laughs.docx', bytes: wordNestedEntities() },
    { name: 'word-external-entity', fileName: 'secret.docx', bytes: wordExternalEntity() },
    { name: 'html-nested-200000-deep', fileName: 'deep.html', bytes: deeplyNestedHtml() },
    { name: 'markdown-5-mib-one-line', fileName: 'line.md', bytes: singleLineMarkdown() },
  ];
}
