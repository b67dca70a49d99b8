import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { OpenApiDocument } from '../../scripts/openapi-document.js';
import { emitterSchemas } from '../../scripts/openapi-derived.js';
import * as schemas from '../../src/generated/validators.js';

// The names the team builds against (team brief, "Generated module").
const TEAM_COMPONENTS = [
  'Money',
  'OrderType',
  'OrderStatus',
  'PostFillAction',
  'OrderLineage',
  'OrderFill',
  'BurnOrder',
  'MintOrder',
  'Order',
  'AccountSummary',
  'Pagination',
  'Withdrawal',
  'WsTicket',
  'ErrorBody',
  'ErrorDetail',
  'ExtendedErrorBody',
  'BurnOrderRequest',
  'MintOrderRequest',
  'PlaceOrderRequest',
  'PlaceOrderResult',
  'ListOrdersQuery',
  'OrderList',
  'CancelOrderRequest',
  'CancelOrderResult',
  'CancelAllResult',
  'ModifyOrderRequest',
  'ModifyOrderResult',
  'CreateWithdrawalRequest',
  'Configuration',
  'WalletSubscriptionRequest',
  'PaymentsNetworkSubscriptionRequest',
  'FxSubscriptionRequest',
  'TransferSubscriptionRequest',
  'RestrictedNotificationSubscription',
  'TransferNotificationSubscription',
  'V1SubscriptionRequest',
  'V1Subscription',
  'V1SubscriptionDetail',
  'NotificationPublicKey',
];

const api: OpenApiDocument = parse(
  readFileSync(fileURLToPath(new URL('../../openapi/match-venue.yaml', import.meta.url)), 'utf8'),
);
// The schema components and each operation's query (ListOrdersQuery), as the generator reads them.
const components = emitterSchemas(api);

describe('generated checks', () => {
  it('define every component the team builds against', () => {
    expect(Object.keys(components)).toEqual(expect.arrayContaining(TEAM_COMPONENTS));
  });

  it('export one check per component an operation sends or receives, under the component name', () => {
    const exported = Object.entries(schemas)
      .filter(([, value]) => typeof value === 'function')
      .map(([name]) => name)
      .sort();
    expect(exported.filter((name) => !(name in components))).toEqual([]);
    // Every team component an operation reaches has its check; the error bodies are read by the
    // client's error mapping (core/error.ts), not by an operation's check, so they have none.
    const unchecked = TEAM_COMPONENTS.filter((name) => !exported.includes(name));
    expect(unchecked).toEqual(['ErrorBody', 'ErrorDetail', 'ExtendedErrorBody']);
  });
});
