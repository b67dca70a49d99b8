/**
 * Issue 21, in a real browser: headless Chromium (the distribution's package, driven by
 * playwright-core) against a listening simulator with its dashboard. Screenshots of the main views
 * go to reports/screenshots/ (gitignored test artifacts).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { MatchVenue, usd } from 'match-venue';
import { createSimulator, SEEDED, type Simulator } from 'match-venue/simulator';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from './chromium.js';

const executablePath = findChromium();
const SHOTS = 'reports/screenshots';
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let browser: Browser;
let sim: Simulator;
let url: string;
let uiUrl: string;
let page: Page;
const problems: string[] = [];

describe.skipIf(executablePath === undefined)('the dashboard in Chromium', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    sim = createSimulator({ clock: 'manual', logger: { info: () => undefined, error: () => undefined } });
    const running = await sim.listen({ port: 0, ui: true });
    url = running.url;
    uiUrl = running.uiUrl as string;
    // Running as root (containers, CI) Chromium needs --no-sandbox.
    browser = await chromium.launch({ executablePath: executablePath as string, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await sim?.close();
  });

  it('loads with no console error, live, showing the open auction and the balances', async () => {
    await page.goto(uiUrl);
    await expect.poll(() => page.textContent('#conn')).toBe('live');
    await expect.poll(() => page.textContent('#auction-id')).toBe('1');
    expect(await page.textContent('#countdown')).toBe('manual clock');
    await expect.poll(() => page.textContent('#curves')).toContain('The book is empty');
    const burnerRow = page.locator('#balances-table tbody tr', { hasText: 'burner' });
    await expect.poll(() => burnerRow.textContent()).toContain('100000000.00');
    expect(await page.textContent('body')).not.toMatch(/TEST_API_KEY/);
    expect(problems).toEqual([]);
  });

  it('shows an order placed through the SDK within a second', async () => {
    const burner = new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: url });
    const placed = await burner.orders.place({
      orderType: 'BURN',
      amount: usd('1000'),
      feeBps: '5',
      postFillAction: 'roll',
      sourceWalletId: SEEDED.burner.walletId,
      fiatAccountId: SEEDED.burner.fiatAccountId,
    });
    const started = Date.now();
    await page.waitForSelector(`#orders-table tr[data-order-id="${placed.orderId}"]`, { timeout: 1_000 });
    expect(Date.now() - started).toBeLessThan(1_000);
    const row = await page.textContent(`#orders-table tr[data-order-id="${placed.orderId}"]`);
    expect(row).toContain('burner');
    expect(row).toContain('pending');
    expect(await page.textContent('#order-count')).toBe('1');
    // The same read drew the book: one order, so a chart and no empty state.
    expect(await page.locator('#curves svg').count()).toBe(1);
    await page.screenshot({ path: `${SHOTS}/dashboard-order.png`, fullPage: true });
  });

  it("'clear now' clears the auction; the history chart and the clearing report show it", async () => {
    const minter = new MatchVenue({ apiKey: SEEDED.minter.apiKey, baseUrl: url });
    await minter.orders.place({
      orderType: 'MINT',
      amount: usd('600'),
      feeBps: '2',
      postFillAction: 'cancel',
    });
    await page.click('#clear');
    await expect.poll(() => page.textContent('#auction-id')).toBe('2');
    const chip = page.locator('#history-list button', { hasText: '#1:' });
    await chip.waitFor();
    expect(await chip.textContent()).toContain('600.00');
    expect(await page.locator('#history-chart rect.bar').count()).toBe(1);
    // The REST answer and the page agree: the report is the engine's, not recomputed.
    const report = sim.auctionReport(1);
    expect(await chip.textContent()).toContain(`${report?.clearingFeeBps} bps`);
    await page.locator('#history-chart rect.bar').click();
    await expect.poll(() => page.textContent('#report-h')).toBe('Clearing report: auction 1');
    expect(await page.locator('#report-orders tbody tr').count()).toBe(2);
    expect(await page.textContent('#report-summary')).toContain(`matched 600.00 USD`);
    await page.screenshot({ path: `${SHOTS}/dashboard-report.png`, fullPage: true });
    // The README's picture (docs/dashboard.png) is dashboard-busy-1280x800.png, a busy market's
    // (dashboard-readable.test.ts); this is the quiet one's.
    await page.screenshot({ path: `${SHOTS}/dashboard-1280x800.png` });
    expect(problems).toEqual([]);
  });

  it('drives the control plane: advance, phase, wire and faults do what their /_sim/ routes do', async () => {
    const before = sim.now();
    await page.fill('#advance-ms', '500');
    await page.click('#advance-form button');
    await expect.poll(() => sim.now()).toBe(before + 500);
    await page.selectOption('#phase', 'lock');
    await page.click('#phase-form button');
    await expect.poll(() => page.textContent('#auction-phase')).toBe('lock');
    await page.selectOption('#wire-entity', SEEDED.burner.entityId);
    await page.fill('#wire-amount', '250.00');
    await page.click('#wire-form button');
    const burner = () => sim.getState().entities.find((e) => e.entityId === SEEDED.burner.entityId);
    await expect.poll(() => burner()?.venueBalance.amount).toBe('250.00');
    await page.fill('#faults', '{"latencyMs": 5}');
    await page.click('#faults-form button');
    await expect.poll(() => sim.faults.latencyMs).toBe(5);
    await page.fill('#faults', '{"latencyMs": "x"}');
    await page.click('#faults-form button');
    await expect.poll(() => page.getAttribute('#result', 'class')).toBe('error');
    problems.length = 0; // the refused fault set is a 400 the console reports
  });

  it('shows the snapshot controls, and a restored snapshot shows the restored book', async () => {
    await expect.poll(() => page.isHidden('#snapshot-controls')).toBe(false);
    sim.setPhase('open'); // the control-plane test left the auction locked
    const burner = new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: url });
    const burn = (fee: string) =>
      burner.orders.place({
        orderType: 'BURN',
        amount: usd('2000'),
        feeBps: fee,
        postFillAction: 'cancel',
        sourceWalletId: SEEDED.burner.walletId,
        fiatAccountId: SEEDED.burner.fiatAccountId,
      });
    const kept = await burn('7');
    const snapshot = await (await fetch(`${url}/_sim/snapshot`, { method: 'POST' })).text();
    const file = join(mkdtempSync(join(tmpdir(), 'mv-snapshot-')), 'snapshot.json');
    writeFileSync(file, snapshot);
    // After the snapshot: the kept order is cancelled and another placed.
    await burner.orders.cancel({ auctionId: kept.auctionId, orderId: kept.orderId });
    const later = await burn('8');
    const row = (id: string) => `#orders-table tr[data-order-id="${id}"]`;
    await expect.poll(() => page.textContent(row(kept.orderId))).toContain('cancelled');
    await page.waitForSelector(row(later.orderId));

    await page.setInputFiles('#restore-file', file);
    await expect.poll(() => page.textContent(row(kept.orderId))).toContain('pending');
    await expect.poll(() => page.locator(row(later.orderId)).count()).toBe(0);
    // The page shows what the engine holds: the REST API answers the same book.
    expect((await burner.orders.retrieve(kept.orderId)).status).toBe('pending');
    await page.screenshot({ path: `${SHOTS}/dashboard-restored.png`, fullPage: true });
    expect(problems).toEqual([]);
  });

  it('is keyboard-usable, readable narrow, and axe finds no serious or critical violation', async () => {
    await page.click('#reset');
    await expect.poll(() => page.textContent('#auction-id')).toBe('1');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('BODY');
    await page.evaluate(axeSource);
    const results = (await page.evaluate(() =>
      (window as unknown as { axe: { run(): Promise<unknown> } }).axe.run(),
    )) as { violations: { id: string; impact: string; nodes: unknown[] }[] };
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => `${v.impact} ${v.id} (${v.nodes.length})`)).toEqual([]);
    await page.setViewportSize({ width: 400, height: 800 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/dashboard-narrow.png`, fullPage: true });
    expect(problems).toEqual([]);
  });

  it('asks for the control token where /_sim/* needs it, keeps it in the tab, never in the page', async () => {
    const TOKEN = 'dashboard-token-0123456789';
    const guarded = createSimulator({
      clock: 'manual',
      logger: { info: () => undefined, error: () => undefined },
    });
    try {
      const running = await guarded.listen({ port: 0, ui: true, controlToken: TOKEN });
      const tab = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const seen: string[] = [];
      tab.on('console', (m) => {
        // The first reads are refused 401 before the token is given: expected, and all there is.
        if (m.type() === 'error' && !m.text().includes('401')) seen.push(m.text());
      });
      await tab.goto(running.uiUrl as string);
      await tab.waitForSelector('#token-form:not([hidden])');
      await tab.fill('#token', TOKEN);
      await tab.press('#token', 'Enter');
      await expect.poll(() => tab.textContent('#conn')).toBe('live');
      await expect.poll(() => tab.textContent('#auction-id')).toBe('1');
      expect(await tab.content()).not.toContain(TOKEN);
      expect(await tab.evaluate(() => sessionStorage.length)).toBe(1);
      expect(seen).toEqual([]);
      await tab.close();
    } finally {
      await guarded.close();
    }
  });
});
