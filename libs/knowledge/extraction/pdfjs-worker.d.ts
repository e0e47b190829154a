/** pdfjs-dist ships no types for its worker module; pdf.js only needs it handed over as a whole. */
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
