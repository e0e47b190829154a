import type { Page } from './types.js';

/**
 * A list, page by page from a cursor: `for await (const item of list)` walks every item of every page;
 * `firstPage()` fetches just one.
 */
export class Paginated<T> implements AsyncIterable<T> {
  constructor(private readonly fetchPage: (cursor: string | undefined) => Promise<Page<T>>) {}

  firstPage(): Promise<Page<T>> {
    return this.fetchPage(undefined);
  }

  /** The page that starts at this cursor (a previous page's `next_cursor`; none for the first). */
  page(cursor?: string | null): Promise<Page<T>> {
    return this.fetchPage(cursor ?? undefined);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let cursor: string | undefined;
    do {
      const page = await this.fetchPage(cursor);
      yield* page.data;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  /** Every item, in order (for lists you know to be short). */
  async all(): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}
