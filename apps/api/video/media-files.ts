import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/** The only parts of MEDIA_DIR that are published; `renders/` (work under way: prompts, logs) never is. */
export const PUBLISHED_MEDIA_DIRS = ['videos', 'thumbnails'] as const;

/** A published file: one name, no directory, no dotfile (unfinished renders are `.…part`). */
const PUBLISHED_FILE = /^\/[A-Za-z0-9][A-Za-z0-9_-]*\.(?:mp4|jpg)$/;

/**
 * Serves the offline renderer's finished files under /media/videos/ and /media/thumbnails/. No listing,
 * no dotfiles (unfinished `.part` files), and the names carry 128 random bits, so one organisation can
 * neither list nor guess another's media.
 */
export function serveMediaFiles(app: NestFastifyApplication, mediaDir: string): void {
  for (const dir of PUBLISHED_MEDIA_DIRS) {
    const root = join(mediaDir, dir);
    mkdirSync(root, { recursive: true });
    app.useStaticAssets({
      root,
      prefix: `/media/${dir}/`,
      decorateReply: false,
      index: false,
      list: false,
      dotfiles: 'deny',
      // Anything else (a directory, a traversal) is simply not found.
      allowedPath: (pathName: string) => PUBLISHED_FILE.test(pathName),
      // Their caching is set with the other headers (common/security-headers.ts).
      cacheControl: false,
    });
  }
}
