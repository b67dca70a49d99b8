/**
 * The venue operations as types read off the contract's endpoint table (src/generated/): which
 * operations are the venue's, what each takes and what its success `data` is. The engine, the HTTP
 * port and the venue routes are mapped over these, so an operation added to the OpenAPI document
 * without its engine method or its route does not compile.
 */
import type { endpoints, OperationId } from '../../generated/endpoints.js';

type Table = typeof endpoints;

/** The venue's operations: the table's paths under `/v1/match/` (the others are the platform's). */
export type VenueOperationId = {
  [K in OperationId]: Table[K]['path'] extends `/v1/match/${string}` ? K : never;
}[OperationId];

/** What a check of the table produces; undefined where the table has none (null). */
type Checked<C> = C extends null
  ? undefined
  : C extends (value: never, ctx: never) => infer Out
    ? Out
    : never;

/** The path parameters of an operation, by the names the table lists. */
type PathParams<K extends OperationId> = Table[K]['pathParams'] extends readonly []
  ? undefined
  : Record<Table[K]['pathParams'][number], string>;

/**
 * What an operation takes once its request is checked: its JSON body, else its query, else its
 * path parameters; undefined for an operation with none of them.
 */
export type RequestOf<K extends OperationId> = Table[K]['body'] extends null
  ? Table[K]['query'] extends null
    ? PathParams<K>
    : Checked<Table[K]['query']>
  : Checked<Table[K]['body']>;

/** The success body's `data` of an operation (a model of src/generated/models.ts); undefined for a 204. */
export type ResponseOf<K extends OperationId> = Checked<Table[K]['responseData']>;

/** Serves one venue operation for an authenticated entity. */
export type VenueOperation<K extends OperationId, Out = ResponseOf<K>> = (
  entityId: string,
  input: RequestOf<K>,
) => Out;

/** WebSocket tickets are the HTTP layer's (ws/tickets.ts); the engine serves every other operation. */
export type EngineOperationId = Exclude<VenueOperationId, 'createWsTicket'>;

/** What the engine implements: each operation of the table but the ticket, synchronously. */
export type EngineOperations = { [K in EngineOperationId]: VenueOperation<K> };

/** Every venue operation, as the HTTP port offers them: the engine's, and the ticket (signed asynchronously). */
export type VenueOperations = EngineOperations & {
  createWsTicket: VenueOperation<'createWsTicket', Promise<ResponseOf<'createWsTicket'>>>;
};
