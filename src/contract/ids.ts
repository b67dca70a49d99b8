const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * The spec's `uuid`: any version, either case (as the generated schemas' z.guid() accepts). One
 * regex test, cheap enough for the per-request path; the SDK and the simulator both check ids with it.
 */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * The id of the order a placement creates: the spec's "orderId equals the idempotencyKey of the
 * create request". The venue names the order with it; a client looks an uncertain placement up by it.
 */
export function orderIdFor(idempotencyKey: string): string {
  return idempotencyKey;
}
