import type { FastifyInstance } from 'fastify';
import type { Pool } from 'pg';

/**
 * The life of a baseline server process: listen on PORT (127.0.0.1), say so, and on SIGTERM or SIGINT
 * close the server, then its pool, then exit. A failure to start exits 1.
 */
export function serveBaseline(name: string, start: () => Promise<{ app: FastifyInstance; pool: Pool }>): void {
  process.title = `pylon-bench-${name}`;
  start()
    .then(async ({ app, pool }) => {
      await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
      console.log(`${name} listening on ${app.listeningOrigin}`);
      const stop = () => {
        void app
          .close()
          .then(() => pool.end())
          .finally(() => process.exit(0));
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
