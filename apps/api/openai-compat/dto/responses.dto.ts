import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsInt, Max, Min } from 'class-validator';
import { IsOmittable } from '../../common/omittable';

const asBoolean = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

/** `GET /v1/responses/{id}`: the object, or (`stream=true`) its stream again from after `starting_after`. */
export class RetrieveResponseQuery {
  @IsOmittable()
  @Transform(asBoolean)
  @IsBoolean()
  stream?: boolean;

  @IsOmittable()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(2_147_483_647)
  starting_after?: number;
}

/** `GET /v1/responses/{id}/input_items`: OpenAI's list parameters. */
export class InputItemsQuery {
  @IsOmittable()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}
