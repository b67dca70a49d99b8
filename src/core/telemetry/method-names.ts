import type { OperationId } from '../../generated/endpoints.js';

// The SDK method each operation is called through, as call spans and event payloads name it: public
// API like every name of names.ts, kept apart from them because only an observed call reads it
// (observed-call.ts, loaded on first use), while names.ts is read by every call.

/**
 * The SDK method each operation of the endpoint table is called through: a call span is named
 * `match_venue <method>`. A Record over OperationId, so a new operation cannot go unnamed.
 */
export const OPERATION_METHODS: Readonly<Record<OperationId, string>> = {
  getAccount: 'account.retrieve',
  listOrders: 'orders.list',
  placeOrder: 'orders.place',
  getOrder: 'orders.retrieve',
  cancelOrder: 'orders.cancel',
  cancelAllOrders: 'orders.cancelAll',
  modifyOrder: 'orders.modify',
  createWithdrawal: 'withdrawals.create',
  createWsTicket: 'stream.ticket',
  getConfiguration: 'configuration.retrieve',
  createWalletSubscription: 'webhookSubscriptions.create',
  createPaymentsNetworkSubscription: 'webhookSubscriptions.createPaymentsNetwork',
  createFxSubscription: 'webhookSubscriptions.createFx',
  createTransferSubscription: 'webhookSubscriptions.createTransfer',
  listV1Subscriptions: 'snsSubscriptions.list',
  createV1Subscription: 'snsSubscriptions.create',
  deleteV1Subscription: 'snsSubscriptions.delete',
  getNotificationPublicKey: 'webhookSubscriptions.getPublicKey',
};

/** `orders.place` for an operation of the table; `GET /path` for a request sent without one. */
export function methodName(operation: OperationId | undefined, method: string, path: string): string {
  return operation === undefined ? `${method} ${path}` : OPERATION_METHODS[operation];
}
