import { Global, Module, type DynamicModule } from '@nestjs/common';
import { PylonMetrics, type MetricsProcess } from './pylon-metrics';

/** Provides the process's `PylonMetrics` to every module. */
@Global()
@Module({})
export class MetricsModule {
  static forProcess(process: MetricsProcess): DynamicModule {
    return {
      module: MetricsModule,
      providers: [{ provide: PylonMetrics, useFactory: () => new PylonMetrics(process) }],
      exports: [PylonMetrics],
    };
  }
}
