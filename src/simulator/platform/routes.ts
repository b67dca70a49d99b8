/**
 * HTTP routes of the simulator's platform APIs (authenticated; the entity comes from SIM's auth),
 * keyed by the contract's operation ids: method, path and status from src/generated/endpoints.ts.
 */
import { isUuid } from '../../contract/ids.js';
import { endpoints } from '../../generated/endpoints.js';
import { type Check, runCheck } from '../../validation/index.js';
import { readJson } from '../http/body.js';
import { type OperationHandlers, routesByOperation, serveOperation } from '../http/operations.js';
import { HttpError, invalidRequest } from '../http/responses.js';
import type { PlatformHandler } from '../http/port.js';
import { mapRoutes, type RouteTable } from '../http/router.js';
import type { EndpointGuard } from './endpoint-guard.js';
import { entriesFromIssues, entry } from './responses.js';
import type { PlatformSigners } from './signers.js';
import { toV1Wire, type V1Subscription, type V1SubscriptionStore } from './v1-store.js';
import { toV2Wire, type V2Subscription, type V2SubscriptionStore, type V2Variant } from './v2-store.js';

export interface RouteContext {
  v1: V1SubscriptionStore;
  v2: V2SubscriptionStore;
  fetch: typeof fetch;
  /** Refuses endpoints on private addresses while the simulator is bound off loopback. */
  guard: EndpointGuard;
  timeoutMs: number;
  now: () => number;
  masterWalletId: (entityId: string) => string;
  signers: () => Promise<PlatformSigners>;
  /** Sends the confirmation messages; awaited before the create answer goes out. */
  onV1Created: (subscription: V1Subscription) => Promise<void>;
  onV1Deleted: (subscription: V1Subscription) => void;
}

interface PlatformRequest {
  req: Request;
  entityId: string;
  params: Record<string, string>;
  ctx: RouteContext;
}

/**
 * The body checked with an operation's body check: the contract's table (contract/endpoints.ts),
 * the one the client checks the same body with before sending it.
 */
async function parseBody<T>(req: Request, check: Check<T> | null): Promise<T> {
  const body = await readJson(req);
  if (!body.ok) {
    const tooDeep = body.reason === 'too_deep';
    throw invalidRequest(
      tooDeep
        ? 'Invalid entity: the body is nested too deeply.'
        : 'Invalid entity: the body is not valid JSON.',
      [
        entry(
          'body',
          tooDeep ? body.detail.message : 'must be a JSON object',
          body.detail.invalidValue ?? '',
          body.detail.error,
        ),
      ],
    );
  }
  const result = runCheck(check as Check<T>, body.value);
  if (result.ok) return result.value;
  throw invalidRequest(
    'Invalid request: field validation failure.',
    entriesFromIssues(result.issues, body.value),
  );
}

/**
 * The address check of a valid body's endpoint, before anything is sent to it: 400 code 2 naming
 * `endpoint` and the flag that lifts the rule.
 */
async function checkAddress(ctx: RouteContext, endpoint: string): Promise<void> {
  const refused = await ctx.guard.refusal(endpoint);
  if (refused === undefined) return;
  throw invalidRequest(`Invalid request: the endpoint failed the private-address check: ${refused}.`, [
    entry('endpoint', refused, endpoint, 'endpoint_not_public'),
  ]);
}

/** HEAD to the endpoint: the v2 URL check. Resolves to a reason string on failure. */
async function headCheck(ctx: RouteContext, endpoint: string): Promise<string | undefined> {
  try {
    const response = await ctx.fetch(endpoint, {
      method: 'HEAD',
      signal: AbortSignal.timeout(ctx.timeoutMs),
      redirect: 'manual',
    });
    await response.arrayBuffer().catch(() => undefined);
    if (response.status >= 200 && response.status < 300) return undefined;
    return `the endpoint answered HEAD with HTTP ${response.status}; it must answer HEAD with 2xx`;
  } catch (caught) {
    const reason = caught instanceof Error ? caught.message : String(caught);
    return `the endpoint could not be reached with HEAD (${reason})`;
  }
}

type V2Operation =
  | 'createWalletSubscription'
  | 'createPaymentsNetworkSubscription'
  | 'createFxSubscription'
  | 'createTransferSubscription';

async function createV2(
  { req, entityId, ctx }: PlatformRequest,
  operationId: V2Operation,
  variant: V2Variant,
): Promise<unknown> {
  const body: {
    endpoint: string;
    notificationTypes?: string[];
    name?: string;
    enabled?: boolean;
    environment?: string;
    addresses?: string[];
    domains?: number[];
  } = await parseBody(req, endpoints[operationId].body);
  // The HEAD is the create's only outbound request: it goes out once everything else is valid.
  await checkAddress(ctx, body.endpoint);
  const failure = await headCheck(ctx, body.endpoint);
  if (failure !== undefined) {
    throw invalidRequest('Invalid request: the endpoint failed validation.', [
      entry('endpoint', failure, body.endpoint, 'endpoint_validation_failed'),
    ]);
  }
  const stamp = new Date(ctx.now()).toISOString();
  const subscription: V2Subscription = {
    id: crypto.randomUUID(),
    entityId,
    variant,
    name: body.name ?? '',
    endpoint: body.endpoint,
    enabled: body.enabled ?? true,
    createDate: stamp,
    updateDate: stamp,
    notificationTypes: body.notificationTypes ?? ['*'],
    ...(variant === 'transfer'
      ? {
          environment: body.environment ?? 'mainnet',
          addresses: body.addresses ?? [],
          domains: body.domains ?? [],
        }
      : { restricted: false }),
  };
  ctx.v2.add(subscription);
  return toV2Wire(subscription);
}

async function createV1({ req, entityId, ctx }: PlatformRequest): Promise<unknown> {
  const { endpoint } = await parseBody(req, endpoints.createV1Subscription.body);
  await checkAddress(ctx, endpoint);
  const created = ctx.v1.create(entityId, endpoint);
  if (!created.ok) {
    throw invalidRequest(
      `Subscription limit reached: ${ctx.v1.mode} allows ${created.limit} active v1 subscription(s); delete one first.`,
      [entry('endpoint', `at most ${created.limit} active v1 subscriptions`, endpoint, 'limit_exceeded')],
    );
  }
  await ctx.onV1Created(created.subscription);
  return toV1Wire(created.subscription);
}

/** A path id the contract types `format: uuid`; anything else is 400 code 2, before any lookup. */
function uuidParam(params: Record<string, string>, name: string): string {
  const id = params[name] ?? '';
  if (!isUuid(id))
    throw invalidRequest(`Invalid request: ${name} is not a valid UUID.`, [
      entry(name, 'must be a UUID', id, 'invalid_uuid'),
    ]);
  return id;
}

function deleteV1({ params, entityId, ctx }: PlatformRequest): void {
  const id = uuidParam(params, 'id');
  const result = ctx.v1.delete(entityId, id);
  if (result.ok) {
    ctx.onV1Deleted(result.subscription);
    return;
  }
  if (result.reason === 'not-found')
    throw new HttpError(404, 2, `No v1 subscription ${id} for this API key.`);
  throw invalidRequest(
    `Subscription ${id} cannot be deleted while a subscriptionDetails entry is pending ` +
      `(${result.pendingRegions.join(', ')}); confirm it or wait for its removal.`,
    [entry('id', 'every subscriptionDetails entry must be confirmed or deleted', id, 'subscription_pending')],
  );
}

async function publicKey({ params, ctx }: PlatformRequest): Promise<unknown> {
  const keyId = uuidParam(params, 'keyId');
  const { v2 } = await ctx.signers();
  if (keyId !== v2.keyId) throw new HttpError(404, 2, `No notification public key ${keyId}.`);
  return v2.publicKeyRecord;
}

// Handler order per path is the order `Allow` lists the methods in.
const platformOperations: OperationHandlers<PlatformRequest> = {
  getConfiguration: ({ entityId, ctx }) => ({ payments: { masterWalletId: ctx.masterWalletId(entityId) } }),
  listV1Subscriptions: ({ entityId, ctx }) => ctx.v1.list(entityId).map(toV1Wire),
  createV1Subscription: createV1,
  deleteV1Subscription: deleteV1,
  createWalletSubscription: (r) => createV2(r, 'createWalletSubscription', 'wallet'),
  createPaymentsNetworkSubscription: (r) =>
    createV2(r, 'createPaymentsNetworkSubscription', 'payments-network'),
  createFxSubscription: (r) => createV2(r, 'createFxSubscription', 'fx'),
  createTransferSubscription: (r) => createV2(r, 'createTransferSubscription', 'transfer'),
  getNotificationPublicKey: publicKey,
};

const operationRoutes = routesByOperation(platformOperations);

/**
 * The platform's routes as the HTTP dispatch serves them (http/port.ts), each on the context
 * `contextFor` gives its request; a refusal is answered as a Response here.
 */
export function platformRoutes(contextFor: (req: Request) => RouteContext): RouteTable<PlatformHandler> {
  return mapRoutes(operationRoutes, (route) => async (req, { entityId, params }) => {
    try {
      return await serveOperation(route, { req, entityId, params, ctx: contextFor(req) });
    } catch (err) {
      if (err instanceof HttpError) return err.toResponse();
      throw err;
    }
  });
}
