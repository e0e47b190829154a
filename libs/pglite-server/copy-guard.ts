import { MessageType, cString, message, readCString } from './protocol';

// PGlite 0.5 calls exit() on COPY ... FROM STDIN over the wire protocol, killing the whole database.
const COPY_FROM_STDIN = /\bcopy\b[\s\S]*\bfrom\s+stdin\b/i;
const isCopyFromStdin = (sql: string): boolean => /\bstdin\b/i.test(sql) && COPY_FROM_STDIN.test(sql);

const REJECTION_SQL =
  "DO $pglite_server$ BEGIN RAISE EXCEPTION 'COPY FROM STDIN is not supported by the PGlite server' " +
  "USING ERRCODE = 'feature_not_supported'; END $pglite_server$";

/**
 * Replaces a COPY FROM STDIN statement with one that raises an error, so Postgres itself
 * reports it and keeps its transaction / extended-protocol state consistent.
 */
export function guardCopyFromStdin(frame: Buffer): Buffer {
  if (frame[0] === MessageType.Query) {
    const sql = readCString(frame, 5);
    return isCopyFromStdin(sql.value) ? message(MessageType.Query, cString(REJECTION_SQL)) : frame;
  }
  if (frame[0] === MessageType.Parse) {
    const name = readCString(frame, 5);
    const sql = readCString(frame, name.end);
    if (!isCopyFromStdin(sql.value)) return frame;
    return message(MessageType.Parse, frame.subarray(5, name.end), cString(REJECTION_SQL), frame.subarray(sql.end));
  }
  return frame;
}
