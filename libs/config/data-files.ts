/** Files `npm start` and `npm run start:cluster` keep under DATA_DIR (the CLI reads the admin token from there). */
export const ADMIN_TOKEN_FILE = 'admin-token';
export const DEMO_FILE = 'demo.json';
export const POSTGRES_DIR = 'postgres';
export const TEMPORAL_DB_FILE = 'temporal/temporal.db';
/** The key the embedded mode seals secrets under when SECRETS_KEY is not set (see SECRETS_KEY in docs/configuration.md). */
export const SECRETS_KEY_FILE = 'secrets-key';
