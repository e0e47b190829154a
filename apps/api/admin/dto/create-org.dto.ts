import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

export class CreateOrgRequest {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Acme' })
  @IsString()
  @Length(1, 200)
  name!: string;
}

export class OrgView {
  @ApiProperty({ format: 'uuid' }) org_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class OrgList {
  @ApiProperty({ type: [OrgView] }) data!: OrgView[];
  @ApiProperty({ type: String, nullable: true }) next_cursor!: string | null;
}
