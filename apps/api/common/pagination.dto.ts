import { IsOmittable } from './omittable';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { CURSOR_PATTERN, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Page, type PageRequest } from '@pylon/db';

export class PageQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })
  @IsOmittable()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit?: number;

  @ApiPropertyOptional({
    description: 'The `next_cursor` of the previous page: the position of its last item, `<created_at in epoch milliseconds>_<id>`.',
    pattern: CURSOR_PATTERN,
  })
  @IsOmittable()
  @IsString()
  @Matches(new RegExp(CURSOR_PATTERN), { message: 'cursor must be a next_cursor this list gave (<created_at in epoch milliseconds>_<id>)' })
  cursor?: string;
}

export function toPageRequest(query: PageQuery): PageRequest {
  return { limit: query.limit ?? DEFAULT_PAGE_SIZE, cursor: query.cursor };
}

/** The list envelope of every paginated endpoint. */
export interface ListResponse<T> {
  data: T[];
  next_cursor: string | null;
}

export function toListResponse<E, T>(page: Page<E>, view: (item: E) => T): ListResponse<T> {
  return { data: page.items.map(view), next_cursor: page.nextCursor };
}
