import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { PylonMetrics } from '@pylon/metrics';
import { Public } from '../auth/access.decorators';

/** Prometheus metrics of this API process: public, and harmless (no tenant ids, no secrets in labels). */
@ApiExcludeController()
@Public()
@Controller()
export class MetricsController {
  constructor(private readonly metrics: PylonMetrics) {}

  @Get('metrics')
  async metricsText(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const text = await this.metrics.render();
    reply.header('content-type', this.metrics.contentType);
    return text;
  }
}
