import type { Check, CheckInput, CheckOutput } from '../contract/checks.js';
import type { CheckedEndpoint } from '../generated/validators.js';
import type { UnknownOutcomeOperation } from './error.js';
import { PathTemplate } from './path.js';
import type { FinalRequest, QueryValue, RefusalSettler, RequestOptions } from './request.js';
import { validate } from './validation.js';

/** An operation of the endpoint table (contract/operations.ts). */
export type EndpointDefinition = CheckedEndpoint;

type InputOf<C> = C extends Check ? CheckInput<C> : never;

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
  /** Checked with the definition's body validator; its output is what is sent. */
  body?: InputOf<D['body']>;
  /** The idempotency key the body carries (see FinalRequest). */
  idempotencyKey?: string;
  /** Marks a create whose ambiguous failure is OutcomeUnknownError (see FinalRequest). */
  outcome?: UnknownOutcomeOperation;
  /** Settles a retry's refusal from the server's state (see FinalRequest). */
  settleRefusal?: RefusalSettler<EndpointData<D>>;
}

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
  return {
    ...options,
    method: def.method,
    path: pathOf(def, call.params),
    query:
      def.query === null
        ? undefined
        : (validate(def.query, call.query ?? {}, contextOf(def, call)) as Record<string, QueryValue>),
    body: def.body === null ? undefined : validate(def.body, call.body, contextOf(def, call)),
    idempotencyKey: call.idempotencyKey,
    outcome: call.outcome,
    settleRefusal: call.settleRefusal,
    responseSchema: (def.responseData ?? NO_DATA) as Check<EndpointData<D>, unknown>,
  };
}
