import { Global, Injectable, Module, type DynamicModule, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { onStatementSent } from '@pylon/db';
import { PylonMetrics, type MetricsProcess } from './pylon-metrics';

/** Counts every statement the process's database pool sends in `pylon_db_statements_total`. */
@Injectable()
export class DbStatementMetrics implements OnModuleInit, OnModuleDestroy {
  private stop?: () => void;

  constructor(private readonly metrics: PylonMetrics) {}

  onModuleInit(): void {
    this.stop = onStatementSent((statement) => this.metrics.countDbStatement(statement));
  }

  onModuleDestroy(): void {
    this.stop?.();
  }
}

/** Provides the process's `PylonMetrics` to every module. */
@Global()
@Module({})
export class MetricsModule {
  static forProcess(process: MetricsProcess): DynamicModule {
    return {
      module: MetricsModule,
      providers: [{ provide: PylonMetrics, useFactory: () => new PylonMetrics(process) }, DbStatementMetrics],
      exports: [PylonMetrics],
    };
  }
}
