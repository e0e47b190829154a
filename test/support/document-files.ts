/** Documents generated for the extraction tests: PDFs with known text per page, an image-only PDF, a Word file, a PNG. */
import { crc32, deflateSync } from 'node:zlib';
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from 'docx';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** A text drawn at (x, y) in points from the bottom left of an A4 page, in 11 pt Helvetica. */
export interface PlacedText {
  text: string;
  x: number;
  y: number;
}

export async function pdfWithPages(pages: readonly (readonly PlacedText[])[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const texts of pages) {
    const page = pdf.addPage([595, 842]);
    for (const { text, x, y } of texts) page.drawText(text, { x, y, size: 11, font });
  }
  return pdf.save();
}

export async function imageOnlyPdf(pages: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const image = await pdf.embedPng(tinyPng());
  for (let i = 0; i < pages; i++) pdf.addPage([595, 842]).drawImage(image, { x: 50, y: 50, width: 400, height: 400 });
  return pdf.save();
}

/** A 2×2 RGB PNG. */
export function tinyPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // truecolour
  const scanlines = Buffer.from([0, 255, 0, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(scanlines)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A Word file with a Heading 1, a Heading 2 over a bulleted list, and a table. */
export async function wordFile(): Promise<Buffer> {
  const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
  const document = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Harbour guide', heading: HeadingLevel.HEADING_1 }),
          new Paragraph('Welcome to the harbour.'),
          new Paragraph({ text: 'Rules', heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ text: 'No swimming near the locks', bullet: { level: 0 } }),
          new Paragraph({ text: 'Moor only at marked berths', bullet: { level: 0 } }),
          new Paragraph({ text: 'Fees', heading: HeadingLevel.HEADING_2 }),
          new Table({
            rows: [
              new TableRow({ children: [cell('Boat length'), cell('Fee per night')] }),
              new TableRow({ children: [cell('Under 10 m'), cell('20 EUR')] }),
            ],
          }),
        ],
      },
    ],
  });
  return Packer.toBuffer(document);
}

/** A PDF with one page per entry of `pages`, each page's lines written top-down. */
export function pdfWithLines(pages: string[][]): Promise<Uint8Array> {
  return pdfWithPages(pages.map((lines) => lines.map((text, i) => ({ text, x: 50, y: 780 - i * 20 }))));
}

/** A Word document: a heading and a paragraph per section, and a table. */
export async function wordDocument(sections: Array<{ heading: string; text: string }>, table: string[][]): Promise<Buffer> {
  const children: Array<Paragraph | Table> = sections.flatMap((section) => [
    new Paragraph({ text: section.heading, heading: HeadingLevel.HEADING_1 }),
    new Paragraph(section.text),
  ]);
  children.push(
    new Table({ rows: table.map((cells) => new TableRow({ children: cells.map((cell) => new TableCell({ children: [new Paragraph(cell)] })) })) }),
  );
  return Packer.toBuffer(new Document({ sections: [{ children }] }));
}

/** A form carrying `file` (with its name) and the given text fields. */
export function uploadForm(bytes: Uint8Array, fileName: string, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([bytes]), fileName);
  return form;
}
