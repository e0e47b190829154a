/** What replaces a secret or a redacted field in a log line. */
export const REDACTED = '[REDACTED]';

/**
 * API keys (`pyl_…`), webhook signing secrets (`whsec_…`) and bearer credentials, wherever they hide:
 * in a message, an error, a URL. The prefix goes too, so that a grep for it finds nothing.
 */
const SECRET_TEXT = /(?:pyl_|whsec_)[A-Za-z0-9+/=_-]*|\b[Bb]earer\s+[A-Za-z0-9+/=._~-]{8,}/g;

export function maskSecrets(text: string): string {
  return text.replace(SECRET_TEXT, REDACTED);
}

/** Fields never logged, by name: credentials, key hashes, SQL parameters and request bodies. */
const SECRET_FIELDS = [
  'authorization',
  'cookie',
  'password',
  'secret',
  'previousSecret',
  'previous_secret',
  'apiKey',
  'api_key',
  'keyHash',
  'key_hash',
  'adminToken',
  'token',
  'parameters',
  'body',
];

/** pino `redact` paths: the secret fields at the top of a line and one level down, and the credential headers. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((field) => `*.${field}`),
];
