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

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Every code of platform-reference.md "Errors", with its HTTP status (null: SDK-UI, never over HTTP). */
const SPEC_CODES: ReadonlyMap<number, number | null> = new Map<number, number | null>([
  ...[-1, 2].map((c) => [c, 400] as const),
  [3, 403],
  [401, 401],
  // User errors.
  ...[155101, 155106, 155107, 155108, 155109].map((c) => [c, 409] as const),
  ...[155102, 155116, 155132, 155145].map((c) => [c, 404] as const),
  [155103, 401],
  ...[155104, 155105, 155121, 155122, 155123, 155124].map((c) => [c, 403] as const),
  ...[
    ...range(155110, 155115),
    155117,
    155118,
    155119,
    155120,
    155130,
    155131,
    ...range(155133, 155144),
    155146,
  ].map((c) => [c, 400] as const),
  // Entity errors.
  ...[155150, 155152, 155155].map((c) => [c, 404] as const),
  ...[155151, 155154, 155156, 155157].map((c) => [c, 400] as const),
  // Transaction errors: all 400 but 155222.
  ...[
    ...range(155201, 155211),
    155215,
    ...range(155218, 155221),
    ...range(155223, 155245),
    155247,
    155264,
  ].map((c) => [c, 400] as const),
  [155222, 404],
  // Wallet and wallet-set errors.
  [155501, 409],
  [155502, 403],
  ...[...range(155503, 155507), 155509, 155510, 155511, 155515, 155601].map((c) => [c, 400] as const),
  [155512, 404],
  // SDK-UI errors.
  ...range(155701, 155721).map((c) => [c, null] as const),
  // Sign transaction errors.
  ...range(155801, 155808).map((c) => [c, 400] as const),
  // Common errors.
  ...[156001, 156002, 156003, 156005, 156010, 156011, 156012].map((c) => [c, 404] as const),
  ...[156004, 156006, 156008, 156009, 156013, 156014, 156017, ...range(156024, 156027), 156030].map(
    (c) => [c, 400] as const,
  ),
  [156007, 401],
  ...[156015, 156021, 156023].map((c) => [c, 409] as const),
  ...[156016, 156018, 156019, 156020].map((c) => [c, 403] as const),
]);

describe('platform error catalog through the client', () => {
  it("holds exactly the spec's platform codes, each with the spec's HTTP status", () => {
    expect(SPEC_CODES.size).toBe(163);
    const catalog = new Map(platformEntries.map((info) => [info.code, info.http]));
    expect([...catalog.keys()].sort((a, b) => a - b)).toEqual([...SPEC_CODES.keys()].sort((a, b) => a - b));
    for (const [code, http] of SPEC_CODES) expect([code, catalog.get(code)]).toEqual([code, http]);
  });

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
      expect(apiError.venueCode).toBe(code);
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
