/** Every reason an extraction gives up, worded for the person who uploaded the file. */

const MIB = 1024 * 1024;

function mebibytes(bytes: number): string {
  return `${Math.round((bytes / MIB) * 10) / 10} MiB`;
}

export const reasons = {
  noText: 'no text found in the file',
  tooMuchText: (maxChars: number) => `the file's text is longer than ${maxChars} characters`,
  notUtf8: 'the file is not valid UTF-8 text',
  pdfPassword: 'the PDF is protected by a password',
  pdfUnreadable: 'the file is not a readable PDF (it may be truncated or damaged)',
  pdfNoTextLayer: (pages: number) =>
    `no text found: the PDF's ${pages} ${pages === 1 ? 'page has' : 'pages have'} no text layer (a scanned document?); OCR is not supported`,
  docxUnreadable: 'the file is not a readable Word document',
  unpacksTooLarge: (maxBytes: number) => `the file unpacks to more than ${mebibytes(maxBytes)} (a decompression bomb?)`,
  compressionRatio: (ratio: number) => `a part of the file is compressed more than ${ratio}:1 (a decompression bomb?)`,
  tooManyParts: (maxParts: number) => `the file holds more than ${maxParts} parts (a decompression bomb?)`,
  sizesLie: 'a part of the file unpacks to more than it declares (a decompression bomb?)',
};
