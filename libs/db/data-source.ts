import { DataSource, type Logger } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export interface DataSourceSettings {
  url: string;
  poolSize?: number;
  applicationName?: string;
  /** Where TypeORM logs; without one, it logs nothing. */
  logger?: Logger;
}

/** The one way to build a TypeORM DataSource for Pylon's schema. Never `synchronize`. */
export function createDataSource({ url, poolSize = 10, applicationName = 'pylon', logger }: DataSourceSettings): DataSource {
  return new DataSource({
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
    extra: { connectionTimeoutMillis: 10_000 },
  });
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
