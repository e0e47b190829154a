/**
 * API keys look like `pyl_<lookup 12><secret 32><checksum 6>`, all base62.
 * The lookup part finds the row, the secret is compared by hash in constant time,
 * and the checksum (CRC-32 of everything before it) lets a scanner recognise a leaked key offline.
 */
export const API_KEY_PREFIX = 'pyl_';
export const API_KEY_LOOKUP_LENGTH = 12;
export const API_KEY_SECRET_LENGTH = 32;
export const API_KEY_CHECKSUM_LENGTH = 6;
export const API_KEY_LENGTH = API_KEY_PREFIX.length + API_KEY_LOOKUP_LENGTH + API_KEY_SECRET_LENGTH + API_KEY_CHECKSUM_LENGTH;
