import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_TOKEN_FILE } from '@pylon/config';

/** ADMIN_TOKEN if set; otherwise the one saved under DATA_DIR; otherwise a new one, saved and shown once. */
export function resolveAdminToken(configured: string | undefined, dataDir: string): { token: string; generated: boolean; file: string } {
  const file = join(dataDir, ADMIN_TOKEN_FILE);
  if (configured) return { token: configured, generated: false, file };
  if (existsSync(file)) return { token: readFileSync(file, 'utf8').trim(), generated: false, file };
  const token = `adm_${randomBytes(24).toString('base64url')}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return { token, generated: true, file };
}
