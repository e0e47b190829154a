import { DataSource, type DataSourceOptions, type Logger } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';
import { CountingClient, PreparingClient } from './prepared-statements';

export interface DataSourceSettings {
  url: string;
  poolSize?: number;
  applicationName?: string;
  /** Send the statements marked `prepared` as named statements (default true). */
  preparedStatements?: boolean;
  /** Where TypeORM logs; without one, it logs nothing. */
  logger?: Logger;
}

/** The one way to configure a TypeORM DataSource for Pylon's schema. Never `synchronize`. */
export function dataSourceOptions({
  url,
  poolSize = 10,
  applicationName = 'pylon',
  preparedStatements = true,
  logger,
}: DataSourceSettings): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    synchronize: false,
    migrationsRun: false,
    migrationsTransactionMode: 'each',
    poolSize,
    applicationName,
    ...(logger ? { logger } : {}),
    extra: { connectionTimeoutMillis: 10_000, Client: preparedStatements ? PreparingClient : CountingClient },
  };
}

export function createDataSource(settings: DataSourceSettings): DataSource {
  return new DataSource(dataSourceOptions(settings));
}

export async function runMigrations(url: string): Promise<string[]> {
  const dataSource = createDataSource({ url, poolSize: 1, applicationName: 'pylon-migrate' });
  await dataSource.initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  } finally {
    await dataSource.destroy();
  }
}
