import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SECRETS_KEY_FILE } from '@pylon/config';

/**
 * SECRETS_KEY if set; otherwise the one saved under DATA_DIR (mode 0600); otherwise a new random one, saved
 * there, like the admin token. Losing the file loses the secrets sealed under it (MCP headers): back it up
 * with the data directory.
 */
export function resolveSecretsKey(configured: string | undefined, dataDir: string): string {
  if (configured?.trim()) return configured;
  const file = join(dataDir, SECRETS_KEY_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = randomBytes(32).toString('base64');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}
