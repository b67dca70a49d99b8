const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * The spec's `uuid`: any version, either case (as the generated schemas' z.guid() accepts). One
 * regex test, cheap enough for the per-request path; the SDK and the simulator both check ids with it.
 */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
