import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'pylon-secret:v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** No SECRETS_KEY is configured, so nothing can be sealed. */
export class SecretsKeyMissingError extends Error {
  constructor() {
    super('SECRETS_KEY is not set, so this server cannot keep secrets');
    this.name = 'SecretsKeyMissingError';
  }
}

/** A sealed value that no configured key opens (a key removed too early) or that was tampered with. */
export class SecretUnreadableError extends Error {
  constructor(reason: string) {
    super(`a sealed secret cannot be opened: ${reason}`);
    this.name = 'SecretUnreadableError';
  }
}

/** A key's id in a sealed value: the first 8 hex digits of its SHA-256, so the right key is picked without trying each. */
function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/**
 * Secrets at rest (an MCP server's headers): AES-256-GCM under the operator's SECRETS_KEY, as
 * `pylon-secret:v1:<key id>:<iv>:<tag>:<ciphertext>` (base64url). `context` is authenticated with the
 * value (e.g. which header it is), so a sealed value moved elsewhere does not open. Rotation: the new key
 * becomes SECRETS_KEY, the old one goes to SECRETS_PREVIOUS_KEYS (still opens), `npm run pylon -- secrets
 * reseal` seals every stored secret again under the new key, then the old key can go.
 */
export class SecretBox {
  private readonly current: { id: string; key: Buffer } | null;
  private readonly keys: Map<string, Buffer>;

  constructor(current: Buffer | undefined, previous: readonly Buffer[] = []) {
    for (const key of [...(current ? [current] : []), ...previous]) {
      if (key.length !== 32) throw new Error('a secrets key must be 32 bytes');
    }
    this.current = current ? { id: keyId(current), key: current } : null;
    this.keys = new Map([...previous, ...(current ? [current] : [])].map((key) => [keyId(key), key]));
  }

  /** Whether a key to seal with is configured. */
  get canSeal(): boolean {
    return this.current !== null;
  }

  seal(plain: string, context: string): string {
    if (!this.current) throw new SecretsKeyMissingError();
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [PREFIX, this.current.id, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join(':');
  }

  open(sealed: string, context: string): string {
    const parts = sealed.split(':');
    if (parts.length !== 6 || `${parts[0]}:${parts[1]}` !== PREFIX) throw new SecretUnreadableError('not a sealed value');
    const [, , id, iv, tag, ciphertext] = parts as [string, string, string, string, string, string];
    const key = this.keys.get(id);
    if (!key) throw new SecretUnreadableError(`it was sealed under key ${id}, which is neither SECRETS_KEY nor in SECRETS_PREVIOUS_KEYS`);
    const ivBytes = Buffer.from(iv, 'base64url');
    const tagBytes = Buffer.from(tag, 'base64url');
    if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) throw new SecretUnreadableError('malformed');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, ivBytes);
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tagBytes);
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretUnreadableError('it does not authenticate (tampered, or sealed for another place)');
    }
  }

  /** Whether a sealed value is under another key than SECRETS_KEY (a reseal would change it). */
  isStale(sealed: string): boolean {
    return this.current !== null && sealed.split(':')[2] !== this.current.id;
  }

  /** A stable digest of a secret under SECRETS_KEY (HMAC-SHA-256), to tell a retried request from another without storing the secret. */
  digest(plain: string): string {
    if (!this.current) throw new SecretsKeyMissingError();
    return createHmac('sha256', this.current.key).update(plain).digest('base64url');
  }
}

/** A new key, as SECRETS_KEY takes it. */
export function generateSecretsKey(): string {
  return randomBytes(32).toString('base64');
}
