import { IsOmittable } from './omittable';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { IsUuid } from './uuid';
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

/** A page of one organisation's list: the key's own, which `org_id` may name. */
export class OrgPageQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: "Defaults to the key's organisation." })
  @IsOmittable()
  @IsUuid()
  org_id?: string;
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
