/**
 * The one check of a cassette line (the format of src/contract/cassette.ts, docs/FIDELITY.md).
 * `schemas/cassette.schema.json` is drawn from these schemas (scripts/generate-cassette-schema.ts);
 * read.ts applies them line by line. A test pins the inferred types to the contract's interfaces.
 */
import { z } from 'zod';
import { CASSETTE_FORMAT, CASSETTE_VERSION, type CassetteJson } from '../../contract/cassette.js';

const json: z.ZodType<CassetteJson> = z.json() as z.ZodType<CassetteJson>;
const instant = z.iso.datetime({ offset: true }).describe('ISO 8601 instant');
const keyId = z
  .string()
  .max(256)
  .nullable()
  .describe('the id part of the API key that made the call (never the key)');

/** The first line. */
export const CassetteHeaderSchema = z
  .object({
    kind: z.literal('cassette'),
    format: z.literal(CASSETTE_FORMAT),
    version: z.literal(CASSETTE_VERSION).describe('the cassette format version'),
    createdAt: instant,
    sdk: z.string().max(200).describe('the SDK that started the file'),
  })
  .strict();

const HttpSchema = z
  .object({
    kind: z.literal('http'),
    at: instant,
    durationMs: z.number().min(0),
    keyId,
    attempt: z.number().int().min(1),
    request: z
      .object({
        method: z.string().regex(/^[A-Z]{3,7}$/, 'must be an upper-case HTTP method'),
        path: z.string().regex(/^\//, 'must start with /').max(2048),
        query: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
        body: json,
      })
      .strict(),
    response: z
      .object({
        status: z.number().int().min(100).max(599),
        body: json,
        text: z.string().optional().describe('the body as sent, when it was not JSON'),
      })
      .strict()
      .nullable(),
    error: z.string().max(2000).optional(),
  })
  .strict();

const WsSchema = z
  .object({
    kind: z.literal('ws'),
    at: instant,
    connection: z.number().int().min(1),
    keyId,
    event: z.enum(['open', 'send', 'receive', 'close']),
    url: z.string().max(2048).optional(),
    protocol: z.string().max(256).optional(),
    frame: json.optional(),
    code: z.number().int().min(0).max(4999).optional(),
  })
  .strict();

const WebhookSchema = z
  .object({
    kind: z.literal('webhook'),
    at: instant,
    scheme: z.enum(['sns', 'v2']),
    keyId: z.string().max(256).optional(),
    message: json,
  })
  .strict();

/** Any line after the header. */
export const CassetteEntrySchema = z.discriminatedUnion('kind', [HttpSchema, WsSchema, WebhookSchema]);
