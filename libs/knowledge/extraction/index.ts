export * from './types';
export { extractDocument } from './extract-document';
export { ExtractionPool, type ExtractionLoad, type ExtractionPoolSettings } from './extraction-pool';
export { detectDocumentType } from './detect';
export { pageRange } from './page-range';
