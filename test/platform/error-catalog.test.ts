import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ErrorCode,
  errorCatalog,
  isApiError,
  MatchVenue,
  NotFoundError,
  PermissionDeniedError,
} from 'match-venue';
import { describe, expect, it } from 'vitest';

const isPlatformCode = (code: number) =>
  code === -1 || code === 2 || code === 3 || code === 401 || (code >= 155000 && code < 157000);
const platformEntries = [...errorCatalog.values()].filter((info) => isPlatformCode(info.code));
const withHttp = platformEntries.filter((info) => info.http !== null);
const sdkUi = platformEntries.filter((info) => info.http === null);

const CLASS_BY_STATUS: Record<number, typeof APIError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
};

/** A client whose every request is answered with `{code, message}` at `status`. */
function answering(status: number, code: number) {
  const seen: string[] = [];
  const venue = new MatchVenue({
    apiKey: 'TEST_API_KEY:burner:sim',
    baseUrl: 'http://127.0.0.1:1',
    maxRetries: 0,
    fetch: async (url) => {
      seen.push(String(url));
      return Response.json(
        { code, message: `server says ${code}` },
        { status, headers: { 'x-request-id': 'req-1' } },
      );
    },
  });
  return { configuration: venue.configuration, seen };
}

describe('platform error catalog through the client', () => {
  it('covers the documented platform codes', () => {
    // -1, 2, 3, 401, 41 user, 7 entity, 42 transaction, 12 wallet, 1 wallet-set, 21 SDK-UI, 8 sign, 27 common.
    expect(platformEntries.map((i) => i.code)).toEqual(
      expect.arrayContaining([-1, 2, 3, 401, 155101, 155264, 156030]),
    );
    expect(sdkUi).toHaveLength(21);
    expect(withHttp.length).toBe(platformEntries.length - 21);
  });

  it.each(withHttp.map((info) => [info.code, info.http, info.name, info] as const))(
    'code %i with HTTP %i surfaces as the typed error %s with its catalog meaning',
    async (code, http, name, info) => {
      const { configuration, seen } = answering(http!, code);
      const error = await configuration.retrieve().catch((e: unknown) => e);
      expect(seen).toHaveLength(1);
      expect(error).toBeInstanceOf(CLASS_BY_STATUS[http!] ?? APIError);
      expect(isApiError(error, code)).toBe(true);
      const apiError = error as APIError;
      expect(apiError.status).toBe(http);
      expect(apiError.code).toBe(code);
      expect(apiError.info?.name).toBe(name);
      expect(apiError.info?.meaning).toBe(info.meaning);
      expect(apiError.serverMessage).toBe(`server says ${code}`);
      expect(apiError.requestId).toBe('req-1');
      expect(apiError.message).toContain(info.meaning);
      expect(ErrorCode[name as keyof typeof ErrorCode]).toBe(code);
    },
  );

  it.each(sdkUi.map((info) => [info.code, info] as const))(
    'SDK-UI code %i is catalog data only (no HTTP status)',
    (code, info) => {
      expect(info.http).toBeNull();
      expect(info.group).toBe('sdk-ui');
      expect(info.meaning.length).toBeGreaterThan(0);
      expect(ErrorCode[info.name as keyof typeof ErrorCode]).toBe(code);
    },
  );

  it('verifyApiKey answers false for both 401 codes and rethrows 403', async () => {
    expect(await answering(401, 401).configuration.verifyApiKey()).toBe(false);
    expect(await answering(401, 156007).configuration.verifyApiKey()).toBe(false);
    await expect(answering(403, 3).configuration.verifyApiKey()).rejects.toBeInstanceOf(
      PermissionDeniedError,
    );
  });
});
