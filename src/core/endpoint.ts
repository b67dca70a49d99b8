import type { EndpointDefinition as GeneratedEndpoint } from '../generated/endpoints.js';
import type { Check, CheckInput, CheckOutput } from '../validation/index.js';
import { PathTemplate } from './path.js';
import type { FinalRequest, QueryValue, RefusalSettler, RequestOptions } from './request.js';
import { validate } from './validation.js';

/** An operation of the endpoint table (generated/endpoints.ts). */
export type EndpointDefinition = GeneratedEndpoint;

type InputOf<C> = C extends Check ? CheckInput<C> : never;

/** A keyed body whose `idempotencyKey` the caller may leave to the pipeline (each variant of a union). */
type KeyOptional<T> = T extends { idempotencyKey: unknown }
  ? Omit<T, 'idempotencyKey'> & {
      /** The call's idempotency key; made by the pipeline when omitted. */
      idempotencyKey?: string;
    }
  : T;

/** What a call of `def` resolves to: the parsed `data` of its success body, or nothing. */
export type EndpointData<D extends EndpointDefinition> = D['responseData'] extends Check
  ? CheckOutput<D['responseData']>
  : undefined;

/** The caller's part of one call of an endpoint; everything else comes from its definition. */
export interface EndpointCall<D extends EndpointDefinition> {
  /** Names the input in a ValidationError (`Invalid orders.place params: ...`). */
  context?: string;
  /** Values of the path's `{name}` placeholders, each encoded as one segment (as the `path` tag does). */
  params?: Readonly<Record<D['pathParams'][number], string>>;
  /** Checked with the definition's query validator; its output is what is sent. */
  query?: InputOf<D['query']>;
  /**
   * Checked with the definition's body validator; its output is what is sent. A keyed body's
   * `idempotencyKey` may be left out: the pipeline makes one.
   */
  body?: D['keyed'] extends true ? KeyOptional<InputOf<D['body']>> : InputOf<D['body']>;
  /** Settles a retry's refusal from the server's state (see FinalRequest). */
  settleRefusal?: RefusalSettler<EndpointData<D>>;
}

/** A fresh UUID v4 for an idempotency key. */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

// A success without a body (204): whatever arrives is not read.
const NO_DATA: Check<undefined, unknown> = Object.assign(() => undefined, { pure: false });

// Path templates are split once per definition, not per call.
const templates = new WeakMap<EndpointDefinition, PathTemplate>();

function pathOf(def: EndpointDefinition, params: Readonly<Record<string, string>> | undefined): string {
  if (def.pathParams.length === 0) return def.path;
  let template = templates.get(def);
  if (template === undefined) {
    template = new PathTemplate(def.path);
    templates.set(def, template);
  }
  return template.fill(params);
}

function contextOf(def: EndpointDefinition, call: { context?: string | undefined }): string {
  return call.context ?? `${def.method} ${def.path} params`;
}

/**
 * The request one call of `def` sends: method and path from the definition (placeholders filled),
 * the query and body checked against its schemas before anything is sent (a ValidationError naming
 * each field and rule), and its response schema. Throws what the checks throw.
 */
export function endpointRequest<D extends EndpointDefinition>(
  def: D,
  call: EndpointCall<D>,
  options: RequestOptions | undefined,
): FinalRequest<EndpointData<D>> {
  let input: unknown = call.body;
  if (def.keyed && isRecord(input) && input.idempotencyKey === undefined) {
    // The table says the body carries a key: one per call, made here, reused on every attempt.
    input = { ...input, idempotencyKey: newIdempotencyKey() };
  }
  const body = def.body === null ? undefined : validate(def.body, input, contextOf(def, call));
  return {
    ...options,
    method: def.method,
    path: pathOf(def, call.params),
    query:
      def.query === null
        ? undefined
        : (validate(def.query, call.query ?? {}, contextOf(def, call)) as Record<string, QueryValue>),
    body,
    template: def.path,
    operation: def.operationId,
    idempotent: def.idempotent,
    idempotencyKey: def.keyed ? (body as { idempotencyKey: string }).idempotencyKey : undefined,
    settleRefusal: call.settleRefusal,
    responseSchema: (def.responseData ?? NO_DATA) as Check<EndpointData<D>, unknown>,
  };
}
