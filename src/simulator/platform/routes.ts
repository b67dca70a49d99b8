/** HTTP routes of the simulator's platform APIs (authenticated; the entity comes from SIM's auth). */
import type { z } from 'zod';
import { isUuid } from '../../contract/ids.js';
import {
  CreateV1Params,
  FxParams,
  PaymentsNetworkParams,
  TransferParams,
  WalletParams,
} from '../../contract/webhook-subscriptions.js';
import { endpoints } from '../../generated/endpoints.js';
import { parseJsonText, readBodyText } from '../http/body.js';
import { safeDecode } from '../http/router.js';
import { data, entriesFromIssues, entry, error, invalidRequest, json } from './responses.js';
import type { PlatformSigners } from './signers.js';
import { toV1Wire, type V1Subscription, type V1SubscriptionStore } from './v1-store.js';
import { toV2Wire, type V2Subscription, type V2SubscriptionStore, type V2Variant } from './v2-store.js';

export interface RouteContext {
  v1: V1SubscriptionStore;
  v2: V2SubscriptionStore;
  fetch: typeof fetch;
  timeoutMs: number;
  now: () => number;
  masterWalletId: (entityId: string) => string;
  signers: () => Promise<PlatformSigners>;
  /** Sends the confirmation messages; awaited before the create answer goes out. */
  onV1Created: (subscription: V1Subscription) => Promise<void>;
  onV1Deleted: (subscription: V1Subscription) => void;
}

const V1_BASE = '/v1/notifications/subscriptions';
const V2_CREATE_PATHS: Readonly<Record<string, V2Variant>> = {
  '/v2/notifications/subscriptions': 'wallet',
  '/v2/payments-network/notifications/subscriptions': 'payments-network',
  '/v2/fx/notifications/subscriptions': 'fx',
  '/v2/notifications/subscriptions/permissionless': 'transfer',
};
const V2_SCHEMAS: Readonly<Record<V2Variant, z.ZodType<Record<string, unknown>>>> = {
  wallet: WalletParams,
  'payments-network': PaymentsNetworkParams,
  fx: FxParams,
  transfer: TransferParams,
};
const V2_OPERATIONS = {
  wallet: 'createWalletSubscription',
  'payments-network': 'createPaymentsNetworkSubscription',
  fx: 'createFxSubscription',
  transfer: 'createTransferSubscription',
} as const satisfies Record<V2Variant, keyof typeof endpoints>;
const V1_SCHEMA = CreateV1Params;
const PUBLIC_KEY_PREFIX = '/v2/notifications/publicKey/';
function methodNotAllowed(allow: string): Response {
  // Code -1 with 405, as the simulator's other routes answer a wrong method.
  return json(405, { code: -1, message: `Method not allowed; use ${allow}.` }, { allow });
}

async function readJson(
  req: Request,
): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  const parsed = parseJsonText(await readBodyText(req));
  if (parsed.ok) return parsed;
  const tooDeep = parsed.detail.error === 'too_deep';
  return {
    ok: false,
    response: invalidRequest(
      tooDeep
        ? 'Invalid entity: the body is nested too deeply.'
        : 'Invalid entity: the body is not valid JSON.',
      [
        entry(
          'body',
          tooDeep ? parsed.detail.message : 'must be a JSON object',
          parsed.detail.invalidValue ?? '',
          parsed.detail.error,
        ),
      ],
    ),
  };
}

async function parseBody<T>(
  req: Request,
  schema: z.ZodType<T>,
): Promise<{ ok: true; value: T } | { ok: false; response: Response }> {
  const body = await readJson(req);
  if (!body.ok) return body;
  const result = schema.safeParse(body.value);
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    response: invalidRequest(
      'Invalid request: field validation failure.',
      entriesFromIssues(result.error.issues, body.value),
    ),
  };
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

async function createV2(
  req: Request,
  entityId: string,
  variant: V2Variant,
  ctx: RouteContext,
): Promise<Response> {
  const parsed = await parseBody(req, V2_SCHEMAS[variant]);
  if (!parsed.ok) return parsed.response;
  const body = parsed.value as {
    endpoint: string;
    notificationTypes?: string[];
    name?: string;
    enabled?: boolean;
    environment?: string;
    addresses?: string[];
    domains?: number[];
  };
  const failure = await headCheck(ctx, body.endpoint);
  if (failure !== undefined) {
    return invalidRequest('Invalid request: the endpoint failed validation.', [
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
  return data(endpoints[V2_OPERATIONS[variant]].successStatus, toV2Wire(subscription));
}

async function createV1(req: Request, entityId: string, ctx: RouteContext): Promise<Response> {
  const parsed = await parseBody(req, V1_SCHEMA);
  if (!parsed.ok) return parsed.response;
  const created = ctx.v1.create(entityId, parsed.value.endpoint);
  if (!created.ok) {
    return invalidRequest(
      `Subscription limit reached: ${ctx.v1.mode} allows ${created.limit} active v1 subscription(s); delete one first.`,
      [
        entry(
          'endpoint',
          `at most ${created.limit} active v1 subscriptions`,
          parsed.value.endpoint,
          'limit_exceeded',
        ),
      ],
    );
  }
  await ctx.onV1Created(created.subscription);
  return data(endpoints.createV1Subscription.successStatus, toV1Wire(created.subscription));
}

function deleteV1(id: string, entityId: string, ctx: RouteContext): Response {
  if (!isUuid(id)) {
    return invalidRequest('Invalid request: id is not a valid UUID.', [
      entry('id', 'must be a UUID', id, 'invalid_uuid'),
    ]);
  }
  const result = ctx.v1.delete(entityId, id);
  if (result.ok) {
    ctx.onV1Deleted(result.subscription);
    return new Response(null, { status: endpoints.deleteV1Subscription.successStatus });
  }
  if (result.reason === 'not-found') return error(404, 2, `No v1 subscription ${id} for this API key.`);
  return invalidRequest(
    `Subscription ${id} cannot be deleted while a subscriptionDetails entry is pending ` +
      `(${result.pendingRegions.join(', ')}); confirm it or wait for its removal.`,
    [entry('id', 'every subscriptionDetails entry must be confirmed or deleted', id, 'subscription_pending')],
  );
}

async function publicKey(keyId: string, ctx: RouteContext): Promise<Response> {
  const { v2 } = await ctx.signers();
  if (keyId !== v2.keyId) return error(404, 2, `No notification public key ${keyId}.`);
  return data(endpoints.getNotificationPublicKey.successStatus, v2.publicKeyRecord);
}

export async function routePlatform(
  req: Request,
  { entityId }: { entityId: string },
  ctx: RouteContext,
): Promise<Response | undefined> {
  const pathname = new URL(req.url).pathname.replace(/\/+$/, '');
  const method = req.method.toUpperCase();

  if (pathname === '/v1/configuration') {
    if (method !== 'GET') return methodNotAllowed('GET');
    return data(endpoints.getConfiguration.successStatus, {
      payments: { masterWalletId: ctx.masterWalletId(entityId) },
    });
  }
  if (pathname === V1_BASE) {
    if (method === 'POST') return createV1(req, entityId, ctx);
    if (method === 'GET') {
      return data(endpoints.listV1Subscriptions.successStatus, ctx.v1.list(entityId).map(toV1Wire));
    }
    return methodNotAllowed('GET, POST');
  }
  if (pathname.startsWith(`${V1_BASE}/`) && !pathname.slice(V1_BASE.length + 1).includes('/')) {
    if (method !== 'DELETE') return methodNotAllowed('DELETE');
    return deleteV1(safeDecode(pathname.slice(V1_BASE.length + 1)), entityId, ctx);
  }
  const variant = V2_CREATE_PATHS[pathname];
  if (variant !== undefined) {
    if (method !== 'POST') return methodNotAllowed('POST');
    return createV2(req, entityId, variant, ctx);
  }
  if (pathname.startsWith(PUBLIC_KEY_PREFIX) && !pathname.slice(PUBLIC_KEY_PREFIX.length).includes('/')) {
    if (method !== 'GET') return methodNotAllowed('GET');
    return publicKey(safeDecode(pathname.slice(PUBLIC_KEY_PREFIX.length)), ctx);
  }
  return undefined;
}
