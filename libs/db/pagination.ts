import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { ErrorCode, PylonError } from '@pylon/contracts';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface PageRequest {
  limit: number;
  /** A previous page's `nextCursor`. */
  cursor?: string;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

interface CursorPosition {
  createdAt: Date;
  id: string;
}

export class InvalidCursorError extends PylonError {
  constructor() {
    super(ErrorCode.InvalidRequest, 'cursor is not a position in this list (`<created_at in epoch milliseconds>_<id>`, as next_cursor gives it)');
  }
}

/**
 * A cursor is the position of the last item of a page, `<created_at in epoch milliseconds>_<id>`:
 * every string of this form is a position (the page after it may be empty), so the published pattern
 * says exactly which cursors are accepted. Milliseconds up to 13 digits: until the year 2286.
 */
export const CURSOR_PATTERN = '^[0-9]{1,13}_[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const CURSOR = new RegExp(CURSOR_PATTERN);

export function encodeCursor(position: CursorPosition): string {
  return `${position.createdAt.getTime()}_${position.id}`;
}

export function decodeCursor(cursor: string): CursorPosition {
  if (!CURSOR.test(cursor)) throw new InvalidCursorError();
  const separator = cursor.indexOf('_');
  return { createdAt: new Date(Number(cursor.slice(0, separator))), id: cursor.slice(separator + 1) };
}

/**
 * Keyset pagination, newest first, over `(created_at, id)`. Rows are created with millisecond
 * timestamps by the application so that a cursor round-trips exactly through a JS Date.
 */
export async function paginate<T extends ObjectLiteral & { id: string; createdAt: Date }>(
  query: SelectQueryBuilder<T>,
  page: PageRequest,
): Promise<Page<T>> {
  const alias = query.alias;
  if (page.cursor) {
    const position = decodeCursor(page.cursor);
    query.andWhere(`(${alias}.created_at, ${alias}.id) < (:cursorCreatedAt, :cursorId)`, {
      cursorCreatedAt: position.createdAt,
      cursorId: position.id,
    });
  }
  const rows = await query
    .orderBy(`${alias}.created_at`, 'DESC')
    .addOrderBy(`${alias}.id`, 'DESC')
    .limit(page.limit + 1)
    .getMany();
  const items = rows.slice(0, page.limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > page.limit && last ? encodeCursor(last) : null };
}
