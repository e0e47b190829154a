import fastifyMultipart from '@fastify/multipart';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ErrorCode } from '@pylon/contracts';
import { UnparsableBody } from './body-parsing';

/** Route config of the operations that take `multipart/form-data` (`@RouteConfig(TAKES_FILES)`). */
export const TAKES_FILES = { takesFiles: true } as const;

/**
 * `multipart/form-data` is read as a stream by the operations that take files, and only by them: every
 * other operation answers it as any body that is not JSON (415 after authentication, see body-parsing.ts).
 * The size and count limits are set per operation when it reads its parts.
 */
export async function registerMultipart(app: NestFastifyApplication): Promise<void> {
  await app.register(fastifyMultipart);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('preValidation', (request, _reply, done) => {
      const takesFiles = (request.routeOptions.config as { takesFiles?: boolean } | undefined)?.takesFiles === true;
      if (request.isMultipart() && !takesFiles) {
        request.body = new UnparsableBody('the body must be JSON (Content-Type: application/json)', ErrorCode.UnsupportedMediaType);
      }
      done();
    });
}
