import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CassetteDocument,
  type CassetteHttp,
  type CassetteWebhook,
  type CassetteWs,
  parseCassette,
} from 'match-venue/simulator';
import { afterEach } from 'vitest';

// Shared by the record tests: a fresh directory per test for cassette files, and the file read back
// through the one check of the format (parseCassette), so every test also proves its file valid.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A path in a new temporary directory (removed after the test); the file does not exist yet. */
export function cassettePath(name = 'session.ndjson'): string {
  const dir = mkdtempSync(join(tmpdir(), 'mv-record-'));
  dirs.push(dir);
  return join(dir, name);
}

/** The file's text and its parsed, checked document. */
export function readBack(file: string): CassetteDocument & { text: string } {
  const text = readFileSync(file, 'utf8');
  return { text, ...parseCassette(text, file) };
}

export const httpLines = (doc: CassetteDocument): CassetteHttp[] =>
  doc.entries.filter((e): e is CassetteHttp => e.kind === 'http');
export const wsLines = (doc: CassetteDocument): CassetteWs[] =>
  doc.entries.filter((e): e is CassetteWs => e.kind === 'ws');
export const webhookLines = (doc: CassetteDocument): CassetteWebhook[] =>
  doc.entries.filter((e): e is CassetteWebhook => e.kind === 'webhook');
