/**
 * Escapes a string for use as one option value inside an ffmpeg filtergraph given as a single
 * argument (`-filter_complex`, no shell): first the filter-option level (`\ ' :`), then the
 * filtergraph level (`\ ' [ ] , ;`). Use it for file names; user text goes through `textfile=`.
 */
export function filterValue(value: string): string {
  const optionLevel = value.replace(/[\\':]/g, (c) => `\\${c}`);
  return optionLevel.replace(/[\\'[\],;]/g, (c) => `\\${c}`);
}
