import { WebhookError, type WebhookErrorCode } from './errors.js';
import type { HeadersLike } from './headers.js';
import { getHeader } from './headers.js';
import { confirmSnsSubscription } from './sns-confirm.js';
import type {
  SnsNotification,
  SnsSubscriptionConfirmation,
  SnsUnsubscribeConfirmation,
} from './sns-message.js';
import { createSnsVerifier, type SnsVerifierOptions } from './sns-verifier.js';
import type { V2Notification } from './v2-notification.js';
import { deliveryRecorder } from './record.js';
import { createV2Verifier, type V2VerifierOptions } from './v2-verifier.js';

/** A verified delivery handed to `onNotification`. */
export type WebhookEvent =
  | {
      /** Notification API v1 (SNS). */
      version: 1;
      /** The verified SNS message; `Message` holds the product's JSON document. */
      notification: SnsNotification;
    }
  | {
      /** Notification API v2. */
      version: 2;
      /** The id of the key that signed the delivery. */
      keyId: string;
      /** The verified, parsed body. */
      notification: V2Notification;
    };

/** The `v1` options of {@link createWebhookReceiver}: verification, plus what to do with confirmations. */
export interface SnsReceiverOptions extends SnsVerifierOptions {
  /** Fetch the SubscribeURL of a verified SubscriptionConfirmation (default true). */
  autoConfirm?: boolean;
  /** Called after a verified SubscriptionConfirmation (after confirming it, unless opted out). */
  onSubscriptionConfirmation?: (
    message: SnsSubscriptionConfirmation,
    info: { confirmed: boolean },
  ) => unknown | Promise<unknown>;
  /** Called for a verified UnsubscribeConfirmation; it is otherwise acknowledged and ignored. */
  onUnsubscribeConfirmation?: (message: SnsUnsubscribeConfirmation) => unknown | Promise<unknown>;
}

/** Options of {@link createWebhookReceiver}; give `v1`, `v2` or both. */
export interface WebhookReceiverOptions {
  /** Accept notification API v1 (SNS) deliveries with these settings. */
  v1?: SnsReceiverOptions;
  /** Accept notification API v2 deliveries with these settings. */
  v2?: V2VerifierOptions;
  /** Your handler, called once per verified notification. Throwing answers 500 (the platform retries). */
  onNotification: (event: WebhookEvent) => unknown | Promise<unknown>;
  /** Observes every refused delivery and handler failure (for logging; never echoed to the sender). */
  onError?: (error: WebhookError, context: { status: number }) => void;
  /** Largest body accepted, in bytes (default 1 MiB; SNS messages are at most 256 KiB). */
  maxBodyBytes?: number;
  /**
   * Append every verified delivery to this cassette file (docs/CASSETTES.md), without its signature
   * material; a client's `record` may share the file. Node only. Default: MATCH_VENUE_RECORD, else off.
   */
  record?: string;
}

/** A framework-neutral delivery: what the adapters extract from their request objects. */
export interface WebhookDelivery {
  /** The HTTP method; HEAD is answered 200 without verification. */
  method: string;
  /** The request headers, any casing. */
  headers: HeadersLike;
  /** The raw body (string, Buffer, Uint8Array); ignored for HEAD. */
  body?: unknown;
}

/** What the receiver answers; adapters copy it onto their response objects. */
export interface WebhookReply {
  /** The HTTP status to answer with. */
  status: number;
  /** Headers to set. */
  headers: Record<string, string>;
  /** The body to send: empty, or a JSON error (`{ error: { code, message } }`). */
  body: string;
}

/** A configured receiver, with one entry point per style of HTTP server. */
export interface WebhookReceiver {
  /** The core: verify, dispatch, and decide the answer. */
  handle(delivery: WebhookDelivery): Promise<WebhookReply>;
  /** Fetch-style handler (`Request` -> `Response`): Hono, Next.js route handlers, Bun, Deno, workers. */
  fetch(request: Request): Promise<Response>;
  /** node:http listener: `http.createServer(receiver.node)`. Reads the raw body itself. */
  node(req: NodeRequest, res: NodeResponse): void;
  /**
   * Express-style middleware: `app.post('/hook', receiver.express)`, with no body parser on that
   * route or with `express.raw({ type: () => true })` (SNS posts text/plain, so a raw parser
   * limited to JSON types would skip it). A parser that skipped the request without reading it
   * (Express 4's `express.json()` leaves `{}` on a text/plain post) is harmless: the raw stream is
   * read instead. A body actually parsed into an object goes to `next` as `WEBHOOK_BODY_NOT_RAW`.
   */
  express(req: NodeRequest, res: NodeResponse, next: (error?: unknown) => void): void;
}

/** The parts of node's IncomingMessage the adapters use (plus the `body` a framework may attach). */
export interface NodeRequest extends AsyncIterable<unknown> {
  /** The HTTP method. */
  method?: string | undefined;
  /** The request headers, names in lower case. */
  headers: Record<string, string | string[] | undefined>;
  /** A body a framework already read (raw bytes or text; a parsed object is refused). */
  body?: unknown;
  /** node's IncomingMessage flag: false while the body stream has not been read to its end. */
  readableEnded?: boolean;
}

/** The parts of node's ServerResponse the adapters use. */
export interface NodeResponse {
  /** The status to answer with. */
  statusCode: number;
  /** Sets one response header. */
  setHeader(name: string, value: string): unknown;
  /** Sends the body and ends the response. */
  end(body?: string): unknown;
}

const DEFAULT_MAX_BODY = 1024 * 1024;

const STATUS_BY_CODE: Partial<Record<WebhookErrorCode, number>> = {
  WEBHOOK_BODY_TOO_LARGE: 413,
  // Our fetches failing is not the sender's fault: a 503 invites a redelivery once we can fetch.
  WEBHOOK_CERT_FETCH_FAILED: 503,
  WEBHOOK_KEY_FETCH_FAILED: 503,
  WEBHOOK_CONFIRM_FAILED: 503,
  // The server is misconfigured (a body parser ran first): 500 so deliveries retry after the fix.
  WEBHOOK_BODY_NOT_RAW: 500,
  WEBHOOK_HANDLER_FAILED: 500,
  WEBHOOK_CONFIG_INVALID: 500,
  WEBHOOK_INTERNAL_ERROR: 500,
};

function reply(status: number, body = '', headers: Record<string, string> = {}): WebhookReply {
  return { status, body, headers };
}

function errorReply(error: WebhookError, status: number): WebhookReply {
  // A handler's own message may hold anything; only our messages (which carry no secrets) go out.
  const message =
    error.code === 'WEBHOOK_HANDLER_FAILED' ? 'The notification handler failed.' : error.message;
  return reply(status, JSON.stringify({ error: { code: error.code, message } }), {
    'content-type': 'application/json',
  });
}

/**
 * Creates a webhook receiver for v1 (SNS) and/or v2 deliveries. It answers HEAD with 200 (v1
 * warm-up, v2 URL validation); for POST it verifies the delivery, auto-confirms v1 subscriptions,
 * calls `onNotification` and answers 200, or 400 for a bad signature or body, 413 for an oversized
 * body, 503 when a certificate, key or confirmation fetch failed, and 500 when the handler threw.
 * A POST carrying the v2 signature header is verified as v2; any other POST as v1. Refusals carry
 * a WebhookError `code` (`WEBHOOK_SIGNATURE_INVALID`, ...), passed to `onError`; a configuration
 * it cannot use throws WebhookError `WEBHOOK_CONFIG_INVALID` at once.
 *
 * @example
 * ```ts
 * import http from 'node:http';
 * import { createWebhookReceiver } from 'match-venue/webhooks';
 *
 * const receiver = createWebhookReceiver({
 *   v1: { topicArn: /^arn:aws:sns:[a-z0-9-]+:\d+:my-topic$/ },
 *   v2: {}, // fetches signing keys with MATCH_VENUE_BASE_URL and MATCH_VENUE_API_KEY
 *   onNotification: async (event) => console.log(event.version, event.notification),
 * });
 * http.createServer(receiver.node).listen(8080);
 * ```
 */
export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookReceiver {
  if (!options.v1 && !options.v2) {
    throw new WebhookError(
      'WEBHOOK_CONFIG_INVALID',
      'createWebhookReceiver needs a v1 and/or a v2 configuration.',
    );
  }
  const snsOptions = options.v1;
  const sns = snsOptions ? createSnsVerifier(snsOptions) : undefined;
  const v2 = options.v2 ? createV2Verifier(options.v2) : undefined;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const record = deliveryRecorder(options.record, options.v2?.apiKey ? [options.v2.apiKey] : []);

  function report(error: WebhookError, status: number): void {
    try {
      options.onError?.(error, { status });
    } catch {
      // A failing logger must not change the answer the platform gets.
    }
  }

  async function dispatch(delivery: WebhookDelivery): Promise<void> {
    if (v2 && (getHeader(delivery.headers, v2.signatureHeader) !== undefined || !sns)) {
      const { keyId, notification } = await v2.verify({ headers: delivery.headers, body: delivery.body });
      record?.('v2', notification, keyId);
      await runHandler(() => options.onNotification({ version: 2, keyId, notification }));
      return;
    }
    if (!sns || !snsOptions) return;
    const message = await sns.verify(delivery.body);
    record?.('sns', message);
    if (message.Type === 'Notification') {
      await runHandler(() => options.onNotification({ version: 1, notification: message }));
    } else if (message.Type === 'SubscriptionConfirmation') {
      const confirm = snsOptions.autoConfirm !== false;
      if (confirm) {
        await confirmSnsSubscription(message, {
          ...(snsOptions.fetch ? { fetch: snsOptions.fetch } : {}),
          ...(snsOptions.urlPolicy ? { urlPolicy: snsOptions.urlPolicy } : {}),
        });
      }
      const hook = snsOptions.onSubscriptionConfirmation;
      if (hook) await runHandler(() => hook(message, { confirmed: confirm }));
    } else {
      const hook = snsOptions.onUnsubscribeConfirmation;
      if (hook) await runHandler(() => hook(message));
    }
  }

  async function handle(delivery: WebhookDelivery): Promise<WebhookReply> {
    const method = delivery.method.toUpperCase();
    if (method === 'HEAD') return reply(200);
    if (method !== 'POST') return reply(405, '', { allow: 'HEAD, POST' });
    try {
      await dispatch(delivery);
      return reply(200);
    } catch (caught) {
      const error =
        caught instanceof WebhookError
          ? caught
          : new WebhookError('WEBHOOK_INTERNAL_ERROR', 'The webhook receiver failed unexpectedly.', {
              cause: caught,
            });
      const status = STATUS_BY_CODE[error.code] ?? 400;
      report(error, status);
      return errorReply(error, status);
    }
  }

  function tooLarge(): WebhookReply {
    const error = new WebhookError('WEBHOOK_BODY_TOO_LARGE', `Webhook body exceeds ${maxBodyBytes} bytes.`);
    report(error, 413);
    return errorReply(error, 413);
  }

  async function handleNode(req: NodeRequest): Promise<WebhookReply> {
    const method = req.method ?? 'GET';
    if (method.toUpperCase() !== 'POST' || hasAttachedBody(req)) {
      return handle({ method, headers: req.headers, body: req.body });
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of req) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Uint8Array);
      size += bytes.byteLength;
      if (size > maxBodyBytes) return tooLarge();
      chunks.push(bytes);
    }
    return handle({ method, headers: req.headers, body: Buffer.concat(chunks) });
  }

  function send(res: NodeResponse, answer: WebhookReply): void {
    res.statusCode = answer.status;
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    res.end(answer.body);
  }

  return {
    handle,
    async fetch(request) {
      let body: Uint8Array | undefined;
      if (request.method.toUpperCase() === 'POST') {
        const declared = Number(request.headers.get('content-length') ?? '0');
        if (declared > maxBodyBytes) return toResponse(tooLarge());
        body = new Uint8Array(await request.arrayBuffer());
        if (body.byteLength > maxBodyBytes) return toResponse(tooLarge());
      }
      return toResponse(await handle({ method: request.method, headers: request.headers, body }));
    },
    node(req, res) {
      handleNode(req).then(
        (answer) => send(res, answer),
        () => send(res, reply(400, '', {})),
      );
    },
    express(req, res, next) {
      const parsed = hasAttachedBody(req) && !isRawBody(req.body);
      if (parsed && (req.method ?? '').toUpperCase() === 'POST') {
        next(
          new WebhookError(
            'WEBHOOK_BODY_NOT_RAW',
            'The webhook route received an already-parsed body. Mount the receiver before any JSON body ' +
              "parser, or use express.raw({ type: '*/*' }) on its route: signatures cover the raw bytes.",
          ),
        );
        return;
      }
      handleNode(req).then(
        (answer) => send(res, answer),
        (error: unknown) => next(error),
      );
    },
  };
}

function isRawBody(body: unknown): boolean {
  return typeof body === 'string' || body instanceof Uint8Array || body instanceof ArrayBuffer;
}

/**
 * Whether a framework attached the body to be used: a raw one always; a parsed object only when
 * the stream was consumed, since a parser that skipped a content type (body-parser 1.x sets `{}`)
 * left the raw bytes unread in the stream.
 */
function hasAttachedBody(req: NodeRequest): boolean {
  if (req.body === undefined) return false;
  return isRawBody(req.body) || req.readableEnded !== false;
}

/** Runs user code, turning anything it throws into `WEBHOOK_HANDLER_FAILED` (answered with 500). */
async function runHandler(callback: () => unknown): Promise<void> {
  try {
    await callback();
  } catch (error) {
    throw new WebhookError('WEBHOOK_HANDLER_FAILED', 'The notification handler threw.', { cause: error });
  }
}

function toResponse(answer: WebhookReply): Response {
  return new Response(answer.body === '' ? null : answer.body, {
    status: answer.status,
    headers: answer.headers,
  });
}
