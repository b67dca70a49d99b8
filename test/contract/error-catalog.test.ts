import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ErrorCode, type ErrorCodeInfo, errorCatalog, lookupErrorCode } from '../../src/generated/errors.js';

const repo = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

// errors.yaml entries carry exactly the catalog's fields; the tests below compare the two.
const yamlEntries: ErrorCodeInfo[] = parse(readFileSync(repo('openapi/errors.yaml'), 'utf8')).codes;

describe('error catalog', () => {
  it('holds exactly 180 codes: 17 venue and 163 platform', () => {
    expect(errorCatalog.size).toBe(180);
    expect(Object.keys(ErrorCode)).toHaveLength(180);
    const venue = [...errorCatalog.values()].filter((info) => info.group.startsWith('venue-'));
    expect(venue).toHaveLength(17);
  });

  it('resolves every code of errors.yaml to its metadata', () => {
    expect(yamlEntries).toHaveLength(180);
    for (const entry of yamlEntries) {
      const info = lookupErrorCode(entry.code);
      expect(info).toEqual(expect.objectContaining(entry));
      expect(ErrorCode[info?.name as keyof typeof ErrorCode]).toBe(entry.code);
    }
  });

  it('has unique PascalCase names and codes', () => {
    const names = [...errorCatalog.values()].map((info) => info.name);
    expect(new Set(names).size).toBe(180);
    for (const name of names) expect(name).toMatch(/^[A-Z][A-Za-z0-9]*$/);
    expect(new Set(Object.values(ErrorCode)).size).toBe(180);
  });

  it('uses the names the team fixed', () => {
    expect(ErrorCode).toMatchObject({
      AuctionLocked: 136001,
      AuctionSettling: 136002,
      InsufficientBalance: 137001,
      InvalidWallet: 137002,
      WalletNotFound: 137003,
      IdempotencyKeyReused: 137004,
      FeeChangeNotMoreCompetitive: 137005,
      SelfMatch: 137006,
      InvalidFiatAccount: 137007,
      MaxOrdersPerAuction: 137008,
      TransactionLimitExceeded: 137009,
      EntityNotEligible: 137010,
      WithdrawalExceedsBalance: 138001,
      WithdrawalInvalid: 138002,
      AccountNotFound: 138003,
      InvalidWithdrawalDestination: 138004,
      VenueWalletInvalid: 139001,
      UnknownError: -1,
      InvalidRequest: 2,
      Forbidden: 3,
      MalformedAuthorization: 401,
      ApiKeyNotFound: 156007,
    });
  });

  it('gives each code the status and retry judgement the documents imply', () => {
    expect(lookupErrorCode(136001)).toMatchObject({
      http: 400,
      retryable: true,
      raisedBy: ['cancelOrder', 'cancelAllOrders'],
    });
    expect(lookupErrorCode(137004)).toMatchObject({
      http: 409,
      retryable: false,
      raisedBy: ['placeOrder', 'createWithdrawal'],
    });
    expect(lookupErrorCode(137006)).toMatchObject({ http: 409, retryable: false });
    expect(lookupErrorCode(137008)).toMatchObject({ http: 400, retryable: true });
    expect(lookupErrorCode(138003)).toMatchObject({
      http: 404,
      raisedBy: ['getAccount', 'createWithdrawal'],
    });
    expect(lookupErrorCode(155222)).toMatchObject({ http: 404, group: 'transaction' });
    expect(lookupErrorCode(155713)).toMatchObject({ http: null, group: 'sdk-ui', retryable: true });
    expect(lookupErrorCode(155801)).toMatchObject({ http: 400, group: 'sign-transaction' });
    expect(lookupErrorCode(156007)).toMatchObject({ http: 401, group: 'common' });
    expect(lookupErrorCode(3)).toMatchObject({ http: 403, group: 'general' });
    for (const code of [-1, 136002, 155119, 155120, 155141, 155142, 155264]) {
      expect(lookupErrorCode(code)?.retryable, String(code)).toBe(true);
    }
    const sdkUi = [...errorCatalog.values()].filter((info) => info.group === 'sdk-ui');
    expect(sdkUi).toHaveLength(21);
    for (const info of sdkUi) expect(info.http).toBeNull();
  });

  it('answers undefined for a code it does not know, and its entries cannot be changed', () => {
    expect(lookupErrorCode(999999)).toBeUndefined();
    const info = lookupErrorCode(137001);
    expect(Object.isFrozen(info)).toBe(true);
  });
});

// The two contract documents live next to the repository during development (../shared/spec);
// when present, every row of their error tables must match errors.yaml exactly.
const specDir = repo('../shared/spec');
const haveSpec =
  existsSync(`${specDir}/match-venue-api.md`) && existsSync(`${specDir}/platform-reference.md`);

function specRows(): { code: number; http: number | null; meaning: string }[] {
  const rows: { code: number; http: number | null; meaning: string }[] = [];
  const section = (text: string) => text.slice(text.indexOf('## Errors'), text.indexOf('## Limits'));
  const venue = section(readFileSync(`${specDir}/match-venue-api.md`, 'utf8'));
  for (const match of venue.matchAll(/^\| (\d+) \| (\d+) \| (.+?) \| .+? \|$/gm)) {
    rows.push({ code: Number(match[1]), http: Number(match[2]), meaning: String(match[3]) });
  }
  let heading = '';
  for (const line of section(readFileSync(`${specDir}/platform-reference.md`, 'utf8')).split('\n')) {
    heading = /^### (.+)$/.exec(line)?.[1] ?? heading;
    const three = /^\| (-?\d+) \| (\d+) \| (.+?) \|$/.exec(line);
    const two = /^\| (-?\d+) \| (.+?) \|$/.exec(line);
    if (three) rows.push({ code: Number(three[1]), http: Number(three[2]), meaning: String(three[3]) });
    else if (two) {
      const code = Number(two[1]);
      const http = heading.startsWith('SDK UI') ? null : code === 155222 ? 404 : 400;
      rows.push({ code, http, meaning: String(two[2]).replace(/ \(404\)$/, '') });
    }
  }
  return rows;
}

describe.skipIf(!haveSpec)('errors.yaml against the contract documents', () => {
  it('has every table row with its status and meaning, plus codes 2 and 401 from the prose', () => {
    const rows = specRows();
    expect(rows).toHaveLength(178);
    for (const row of rows) {
      expect(lookupErrorCode(row.code), String(row.code)).toMatchObject({
        http: row.http,
        meaning: row.meaning,
      });
    }
    const fromTables = new Set(rows.map((row) => row.code));
    const extra = [...errorCatalog.keys()].filter((code) => !fromTables.has(code)).sort((a, b) => a - b);
    expect(extra).toEqual([2, 401]);
  });
});
