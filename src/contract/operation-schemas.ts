import { type EndpointDefinition, endpoints, type OperationId } from '../generated/endpoints.js';
import { PlaceOrderBody } from './orders.js';
import {
  CreateV1Params,
  FxParams,
  PaymentsNetworkParams,
  RestrictedSubscription,
  TransferParams,
  TransferSubscription,
  WalletParams,
} from './webhook-subscriptions.js';

/**
 * The endpoint table with zod schemas (generated/endpoints.ts: method, path, success status,
 * schemas per operation id) with the contract's hand refinements in place of the generated schemas
 * they narrow:
 * - placeOrder: the body's amount is USD (contract/orders.ts);
 * - the webhook subscription creates: `endpoint` is HTTPS, plain http only on loopback, and each
 *   v2 product's answer carries only its own fields (contract/webhook-subscriptions.ts).
 * The simulator keys its routes by the same operation ids and validates with these schemas; where it
 * refuses a refined rule later on purpose (the engine's USD check comes after the eligibility
 * check, 137010 first), it validates with `endpoints` and checks the rule itself. The SDK sends
 * every call from the same table with plain validators in place of the schemas (operations.ts).
 */
export const operationSchemas = {
  ...endpoints,
  placeOrder: { ...endpoints.placeOrder, body: PlaceOrderBody },
  createWalletSubscription: {
    ...endpoints.createWalletSubscription,
    body: WalletParams,
    responseData: RestrictedSubscription,
  },
  createPaymentsNetworkSubscription: {
    ...endpoints.createPaymentsNetworkSubscription,
    body: PaymentsNetworkParams,
    responseData: RestrictedSubscription,
  },
  createFxSubscription: {
    ...endpoints.createFxSubscription,
    body: FxParams,
    responseData: RestrictedSubscription,
  },
  createTransferSubscription: {
    ...endpoints.createTransferSubscription,
    body: TransferParams,
    responseData: TransferSubscription,
  },
  createV1Subscription: { ...endpoints.createV1Subscription, body: CreateV1Params },
} as const satisfies Record<OperationId, EndpointDefinition>;

export type { EndpointDefinition, OperationId };
