/**
 * The platform's simulator-only endpoints (no auth): the stand-ins for the SNS endpoints a
 * subscriber calls, the SubscribeURL (ConfirmSubscription) and the UnsubscribeURL, which answer XML
 * like SNS does; the signing certificate; and the platform state.
 */
import { dataResponse } from '../http/responses.js';
import type { PlatformControlHandler } from '../http/port.js';
import { mapRoutes, type RouteTable } from '../http/router.js';
import { xml, xmlEscape } from './responses.js';
import type { PlatformSigners } from './signers.js';
import type { V1SubscriptionStore } from './v1-store.js';

/** Paths of the simulator-only SNS endpoints, relative to the simulator's base URL. */
export const SNS_CERT_PATH = '/_sim/sns/cert.pem';
export const SNS_CONFIRM_PATH = '/_sim/sns/confirm';
export const SNS_UNSUBSCRIBE_PATH = '/_sim/sns/unsubscribe';
export const PLATFORM_STATE_PATH = '/_sim/platform/state';

const NS = 'http://sns.amazonaws.com/doc/2010-03-31/';

function snsError(status: number, code: string, message: string): Response {
  return xml(
    status,
    `<ErrorResponse xmlns="${NS}"><Error><Type>Sender</Type><Code>${code}</Code>` +
      `<Message>${xmlEscape(message)}</Message></Error><RequestId>${crypto.randomUUID()}</RequestId></ErrorResponse>`,
  );
}

/** GET SubscribeURL: confirms the pending detail the token was issued for (idempotent). */
export function confirmResponse(store: V1SubscriptionStore, url: URL): Response {
  const token = url.searchParams.get('Token') ?? url.searchParams.get('token');
  if (!token) return snsError(400, 'InvalidParameter', 'Token is required.');
  const found = store.confirm(token);
  // An expired (auto-removed) token is indistinguishable from a made-up one, as on SNS.
  if (!found) return snsError(404, 'NotFound', 'Invalid token or the subscription no longer exists.');
  return xml(
    200,
    `<ConfirmSubscriptionResponse xmlns="${NS}"><ConfirmSubscriptionResult>` +
      `<SubscriptionArn>${xmlEscape(found.detail.arn)}</SubscriptionArn></ConfirmSubscriptionResult>` +
      `<ResponseMetadata><RequestId>${crypto.randomUUID()}</RequestId></ResponseMetadata></ConfirmSubscriptionResponse>`,
  );
}

/** GET UnsubscribeURL: marks the detail `deleted`; the v1 subscription itself stays until DELETE. */
export function unsubscribeResponse(store: V1SubscriptionStore, url: URL): Response {
  const arn = url.searchParams.get('SubscriptionArn');
  if (!arn) return snsError(400, 'InvalidParameter', 'SubscriptionArn is required.');
  if (!store.unsubscribe(arn)) return snsError(404, 'NotFound', 'Subscription does not exist.');
  return xml(
    200,
    `<UnsubscribeResponse xmlns="${NS}"><ResponseMetadata><RequestId>${crypto.randomUUID()}</RequestId>` +
      '</ResponseMetadata></UnsubscribeResponse>',
  );
}

interface ControlDeps {
  v1: V1SubscriptionStore;
  signers: () => Promise<PlatformSigners>;
  state: () => unknown;
}

type SnsHandler = (deps: ControlDeps, url: URL) => Response | Promise<Response>;

/**
 * The paths above and what serves them: GET only. HEAD is GET without the body where the GET only
 * reads; the SubscribeURL and the UnsubscribeURL change a subscription, so HEAD on them (a link
 * checker, a preview) is refused with 405 rather than confirming or ending one.
 */
const snsRoutes: RouteTable<SnsHandler> = {
  [SNS_CERT_PATH]: {
    GET: async (deps) => {
      const { sns } = await deps.signers();
      return new Response(sns.certificatePem, {
        status: 200,
        headers: { 'content-type': 'application/x-pem-file' },
      });
    },
  },
  [SNS_CONFIRM_PATH]: { GET: (deps, url) => confirmResponse(deps.v1, url), HEAD: undefined },
  [SNS_UNSUBSCRIBE_PATH]: { GET: (deps, url) => unsubscribeResponse(deps.v1, url), HEAD: undefined },
  [PLATFORM_STATE_PATH]: { GET: (deps) => dataResponse(200, deps.state()) },
};

/** The paths above as the HTTP dispatch serves them (http/port.ts), on `deps`. */
export function platformControlRoutes(deps: ControlDeps): RouteTable<PlatformControlHandler> {
  return mapRoutes(snsRoutes, (handler) => async (req) => handler(deps, new URL(req.url)));
}
