import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/access.decorators';
import { ReadinessService } from './readiness.service';

@ApiExcludeController()
@Public()
@Controller()
export class HealthController {
  constructor(private readonly readiness: ReadinessService) {}

  /** The process is up. */
  @Get('healthz')
  healthz() {
    return { status: 'ok' };
  }

  /** The database and Temporal answer and no task queue is backlogged: ready for traffic (else 503). */
  @Get('readyz')
  async readyz(@Res({ passthrough: true }) reply: FastifyReply) {
    const readiness = await this.readiness.check();
    reply.status(readiness.status === 'ok' ? 200 : 503);
    return readiness;
  }
}
