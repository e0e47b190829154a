import { ApiProperty } from '@nestjs/swagger';

export class ErrorBody {
  @ApiProperty({ example: 'invalid_request' })
  error!: string;
}
