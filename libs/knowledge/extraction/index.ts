export * from './types';
export { extractDocument } from './extract-document';
export { ExtractionPool, type ExtractionLoad, type ExtractionPoolSettings } from './extraction-pool';
export { detectDocumentType, sniffing } from './detect';
export type { FileSample } from './file-sample';
export { pageRange } from './page-range';
