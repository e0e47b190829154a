import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from 'docx';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** A PDF with one page per entry of `pages`, each page's lines written top-down in Helvetica. */
export async function pdfWithPages(pages: string[][]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage([595, 842]);
    lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 20, size: 12, font }));
  }
  return Buffer.from(await pdf.save());
}

/** A Word document: a heading and a paragraph per section, and a two-column table. */
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

/** An 8×8 PNG: a real image, not a document. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEklEQVR4nGP4z8CAFWEXHbQSACj/P8Fu7N9hAAAAAElFTkSuQmCC', 'base64');

/** A form carrying `file` (with its name) and the given text fields. */
export function uploadForm(bytes: Buffer, fileName: string, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([bytes]), fileName);
  return form;
}
