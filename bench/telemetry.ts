/**
 * What telemetry costs a REST call: `venue.orders.retrieve(id)` on a local simulator, as in
 * bench/rest.ts, for the SDK as it was before telemetry (the source at `--baseline`, default the
 * merge-base with main, extracted from git), today's SDK with nothing registered, with a
 * diagnostics_channel subscriber, and with an OpenTelemetry tracer and meter provider registered
 * (spans built, sampled, and handed to a processor that drops them). Each is reported as the
 * median of paired per-round ratios to raw `undici.request`, and the telemetry variants also
 * against the baseline in the same round.
 *
 * "Nothing installed" and "nothing registered" are one path: the SDK reads the OpenTelemetry
 * API's global slot and loads `@opentelemetry/api` only once a provider is registered there.
 *   npx tsx bench/telemetry.ts [--baseline <rev>]
 */
import { execFileSync } from 'node:child_process';
import dc from 'node:diagnostics_channel';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { metrics, trace } from '@opentelemetry/api';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type * as Sdk from 'match-venue';
import { openRestRig, pairedRounds, quantile, ratiosTo, run } from './rest-rig.js';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface TelemetryBenchRow {
  variant: string;
  concurrency: number;
  /** Median paired ratio to raw undici.request in the same round. */
  ratioToUndici: number;
  /** Median paired ratio to the SDK before telemetry in the same round (undefined without a baseline). */
  ratioToBaseline: number | undefined;
  ratioToBaselineIqr: [number, number] | undefined;
}

export interface TelemetryBenchOptions {
  requests?: number;
  warmup?: number;
  rounds?: number;
  concurrency?: readonly number[];
  /** Git revision of "before". Default: the merge-base of HEAD and main. */
  baseline?: string;
}

/** The source tree at `rev`, extracted once under node_modules/.cache/ (outside git and the linters); undefined if git cannot. */
function baselineEntry(rev: string | undefined): string | undefined {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
    const commit = git('rev-parse', rev ?? git('merge-base', 'HEAD', 'main'));
    const dir = `${root}node_modules/.cache/match-venue-bench/${commit}`;
    if (!existsSync(`${dir}/src/index.ts`)) {
      mkdirSync(dir, { recursive: true });
      execFileSync('sh', ['-c', `git archive ${commit} src | tar -x -C ${JSON.stringify(dir)}`], {
        cwd: root,
      });
    }
    return `${dir}/src/index.ts`;
  } catch {
    return undefined;
  }
}

/** Spans are built and ended, then dropped: the SDK's own cost, not an exporter's. */
const dropSpans: SpanProcessor = {
  onStart() {},
  onEnd() {},
  forceFlush: async () => {},
  shutdown: async () => {},
};

export async function benchTelemetry(options: TelemetryBenchOptions = {}): Promise<TelemetryBenchRow[]> {
  const total = options.requests ?? 400;
  const warmup = options.warmup ?? 500;
  const rounds = options.rounds ?? 15;
  const today: typeof Sdk = await import('match-venue');
  const before = baselineEntry(options.baseline);
  const old: typeof Sdk | undefined = before ? await import(pathToFileURL(before).href) : undefined;
  const rig = await openRestRig(today, await import('match-venue/simulator'));
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [dropSpans] });
  const meterProvider = new MeterProvider();
  const noop = () => {};
  const handlers = { start: noop, end: noop, asyncStart: noop, asyncEnd: noop, error: noop };
  try {
    const venue = rig.client(today);
    const retrieve = (v: Sdk.MatchVenue) => async () => {
      if (!(await v.orders.retrieve(rig.orderId)).orderId) throw new Error('bad response');
    };
    const oldVenue = old ? rig.client(old) : undefined;
    const variants: Record<
      string,
      { call: () => Promise<unknown>; setup?: () => void; teardown?: () => void }
    > = {
      'undici.request': { call: rig.undici },
      ...(oldVenue ? { 'before telemetry': { call: retrieve(oldVenue) } } : {}),
      'nothing registered': { call: retrieve(venue) },
      'diagnostics_channel subscriber': {
        call: retrieve(venue),
        setup: () => dc.tracingChannel('match_venue:call').subscribe(handlers),
        teardown: () => dc.tracingChannel('match_venue:call').unsubscribe(handlers),
      },
      'OpenTelemetry provider registered': {
        call: retrieve(venue),
        setup: () => {
          trace.setGlobalTracerProvider(tracerProvider);
          metrics.setGlobalMeterProvider(meterProvider);
        },
        teardown: () => {
          trace.disable();
          metrics.disable();
        },
      },
    };
    const names = Object.keys(variants);
    const timed = async (name: string, n: number, concurrency: number) => {
      const v = variants[name]!;
      v.setup?.();
      try {
        return (await run(v.call, n, concurrency)).ms;
      } finally {
        v.teardown?.();
      }
    };
    const rows: TelemetryBenchRow[] = [];
    for (const concurrency of options.concurrency ?? [1, 64]) {
      for (const name of names) await timed(name, warmup, concurrency);
      const times = await pairedRounds(names, (name) => timed(name, total, concurrency), rounds);
      const toUndici = ratiosTo(times, 'undici.request');
      const toBefore = oldVenue ? ratiosTo(times, 'before telemetry') : undefined;
      for (const variant of names) {
        const b = toBefore?.get(variant);
        rows.push({
          variant,
          concurrency,
          ratioToUndici: quantile(toUndici.get(variant) ?? []),
          ratioToBaseline: b ? quantile(b) : undefined,
          ratioToBaselineIqr: b ? [quantile(b, 25), quantile(b, 75)] : undefined,
        });
      }
    }
    return rows;
  } finally {
    trace.disable();
    metrics.disable();
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
    await rig.close();
  }
}

/** One line per telemetry variant: its paired ratio to the SDK before telemetry. */
export function describeTelemetry(rows: readonly TelemetryBenchRow[]): string[] {
  return rows
    .filter(
      (r) =>
        r.ratioToBaseline !== undefined && r.variant !== 'undici.request' && r.variant !== 'before telemetry',
    )
    .map(
      (r) =>
        `concurrency ${r.concurrency}: ${r.variant} ${r.ratioToBaseline}x the SDK before telemetry ` +
        `(IQR ${r.ratioToBaselineIqr?.[0]}-${r.ratioToBaselineIqr?.[1]}; ${r.ratioToUndici}x raw undici.request)`,
    );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const at = process.argv.indexOf('--baseline');
  const rows = await benchTelemetry(at > 0 ? { baseline: process.argv[at + 1] } : {});
  console.table(rows);
  for (const line of describeTelemetry(rows)) console.log(line);
}
