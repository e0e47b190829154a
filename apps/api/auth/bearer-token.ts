import { ErrorCode, PylonError } from '@pylon/contracts';

/** The token of an `Authorization: Bearer <token>` header: missing → `missing_api_key`, malformed → `invalid_api_key`. */
export function bearerToken(header: string | string[] | undefined): string {
  if (header === undefined || header === '') throw new PylonError(ErrorCode.MissingApiKey, 'no Authorization header');
  const value = Array.isArray(header) ? (header[0] ?? '') : header;
  const match = /^Bearer +(\S+) *$/i.exec(value);
  if (!match) throw new PylonError(ErrorCode.InvalidApiKey, 'Authorization must be "Bearer <API key>"');
  return match[1]!;
}
