/** Files the embedded mode keeps under DATA_DIR. */
export const ADMIN_TOKEN_FILE = 'admin-token';
export const DEMO_FILE = 'demo.json';
export const POSTGRES_DIR = 'postgres';
export const TEMPORAL_DB_FILE = 'temporal/temporal.db';
