export { PgliteServer } from './pglite-server';
export type { PgliteServerOptions } from './pglite-server';
