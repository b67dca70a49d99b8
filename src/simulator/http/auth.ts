import { isWellFormedApiKey } from '../../contract/api-key.js';
import { HttpError } from './responses.js';

export const MALFORMED_AUTH_MESSAGE = 'Malformed authorization. Are the credentials properly encoded?';

/** The bearer key of an Authorization header: missing, or not of the contract's key grammar -> 401 code 401. */
export function bearerKey(header: string | null): string {
  const match = header ? /^Bearer +(\S+)$/i.exec(header.trim()) : null;
  const key = match?.[1];
  if (!key || !isWellFormedApiKey(key)) throw new HttpError(401, 401, MALFORMED_AUTH_MESSAGE);
  return key;
}

export function unknownKey(): HttpError {
  return new HttpError(401, 156007, 'API key not found');
}
