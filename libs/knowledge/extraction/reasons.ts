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
  streamTooLarge: (maxBytes: number) => `a compressed stream in the file expands beyond ${mebibytes(maxBytes)} (a decompression bomb?)`,
  pdfTooManyPages: (maxPages: number) => `the PDF has more than ${maxPages} pages`,
  pdfTooManyTextItems: (page: number, maxItems: number) => `page ${page} of the PDF holds more than ${maxItems} pieces of text`,
  nestedTooDeep: (maxDepth: number) => `the HTML nests its elements more than ${maxDepth} deep`,
  tookTooLong: (seconds: number) => `reading the file took longer than ${seconds} s`,
  pageTookTooLong: (page: number, seconds: number) => `reading page ${page} of the file took longer than ${seconds} s`,
  neededTooMuchMemory: (maxMebibytes: number) => `reading the file needed more than ${maxMebibytes} MiB of memory`,
};
