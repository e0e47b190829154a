import { Global, Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PylonConfig } from '@pylon/config';
import { dataSourceOptions } from './data-source';
import { SafeTypeOrmLogger } from './typeorm-logger';
import { Transactions } from './transactions';
import { Outbox, SUBSCRIPTION_FILTER, type SubscriptionFilter } from './outbox';

/** What the process's features tell the database module. */
export interface DbModuleOptions {
  /** Which endpoints an event is delivered to (the webhooks feature's rule), for the outbox. */
  subscriptionFilter: SubscriptionFilter;
}

/** The database connection, its transactions and the outbox; each feature's module provides its own repositories. */
@Global()
@Module({})
export class DbModule {
  static forRoot(options: DbModuleOptions): DynamicModule {
    return {
      module: DbModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [PylonConfig],
          useFactory: (config: PylonConfig) =>
            dataSourceOptions({
              url: config.requireDatabaseUrl(),
              poolSize: config.dbPoolSize,
              preparedStatements: config.dbPreparedStatements,
              applicationName: process.title,
              logger: new SafeTypeOrmLogger(),
            }),
        }),
      ],
      providers: [{ provide: SUBSCRIPTION_FILTER, useValue: options.subscriptionFilter }, Outbox, Transactions],
      exports: [Outbox, Transactions],
    };
  }
}
