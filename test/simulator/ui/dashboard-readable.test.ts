/**
 * Issue 36 point 4, in Chromium: the dashboard of a busy market (docs/MARKET.md, 200 noise traders
 * and 4 liquidity providers) reads well at 1280 and 400 px. Every table header is seen whole or
 * its table scrolls, no two chart labels overlap or leave their picture, the clearing report's
 * shortened ids are all different, and axe finds nothing serious. Screenshots of both widths go to
 * reports/screenshots/ (looked at by hand; not compared).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { MatchVenue, usd } from 'match-venue';
import { createSimulator, SEEDED, type Simulator } from 'match-venue/simulator';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from './chromium.js';

const executablePath = findChromium();
const SHOTS = 'reports/screenshots';
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const quiet = { info: () => undefined, error: () => undefined };

let browser: Browser;
let sim: Simulator;
let uiUrl: string;

/** A page at `width` px on the busy simulator, loaded, with auction 3's clearing report open. */
async function busyPage(width: number): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: 800 } });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  await page.goto(uiUrl);
  await expect.poll(() => page.textContent('#conn')).toBe('live');
  const auction = String(sim.getState().auction.auctionId);
  await expect.poll(() => page.textContent('#auction-id')).toBe(auction);
  const entities = sim.getState().entities.length;
  await expect.poll(() => page.locator('#balances-table tbody tr').count()).toBe(entities);
  await page.locator('#history-list button', { hasText: '#3:' }).click();
  await expect.poll(() => page.textContent('#report-h')).toBe('Clearing report: auction 3');
  const orders = sim.auctionReport(3)?.orders.length;
  await expect.poll(() => page.locator('#report-orders tbody tr').count()).toBe(orders);
  return { page, problems };
}

/** Per table: its header cells not seen whole, and whether its box scrolls sideways to them. */
function tableHeaders(page: Page) {
  return page.evaluate(() =>
    ['balances-table', 'orders-table', 'report-orders'].map((id) => {
      const table = document.getElementById(id) as HTMLTableElement;
      const box = table.closest('.scroll') as HTMLElement;
      const b = box.getBoundingClientRect();
      const cut = Array.from(table.tHead!.rows[0]!.cells)
        .filter((th) => {
          const r = th.getBoundingClientRect();
          return r.left < b.left - 0.5 || r.right > b.right + 0.5 || th.scrollWidth > th.clientWidth;
        })
        .map((th) => th.textContent);
      const overflowX = getComputedStyle(box).overflowX;
      return {
        id,
        cut,
        scrolls: box.scrollWidth > box.clientWidth && (overflowX === 'auto' || overflowX === 'scroll'),
      };
    }),
  );
}

/** Chart labels that overlap another or reach outside their SVG, and how many labels there are. */
function chartLabels(page: Page) {
  return page.evaluate(() => {
    const bad: string[] = [];
    let count = 0;
    for (const svg of Array.from(document.querySelectorAll<SVGSVGElement>('.chart svg'))) {
      const where = svg.closest('[id]')?.id;
      const s = svg.getBoundingClientRect();
      const boxes = Array.from(svg.querySelectorAll('text')).map((t) => ({
        t: t.textContent,
        r: t.getBoundingClientRect(),
      }));
      count += boxes.length;
      boxes.forEach(({ t, r }, i) => {
        if (
          r.left < s.left - 0.5 ||
          r.right > s.right + 0.5 ||
          r.top < s.top - 0.5 ||
          r.bottom > s.bottom + 0.5
        )
          bad.push(`${where}: "${t}" outside its SVG`);
        for (const o of boxes.slice(i + 1))
          if (r.left < o.r.right && o.r.left < r.right && r.top < o.r.bottom && o.r.top < r.bottom)
            bad.push(`${where}: "${t}" overlaps "${o.t}"`);
      });
    }
    return { bad, count };
  });
}

describe.skipIf(executablePath === undefined)('the dashboard of a busy market, in Chromium', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    sim = createSimulator({ clock: 'manual', market: 'busy', seed: 7, logger: quiet });
    uiUrl = (await sim.listen({ port: 0, ui: true })).uiUrl as string;
    for (let i = 0; i < 3; i++) sim.clearAuction();
    browser = await chromium.launch({ executablePath: executablePath as string, args: ['--no-sandbox'] });
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await sim?.close();
  });

  it.each([1280, 400])(
    'at %i px: headers seen whole or scrolled to, chart labels apart and inside',
    async (width) => {
      const { page, problems } = await busyPage(width);
      const tables = await tableHeaders(page);
      for (const t of tables)
        expect(t.cut.length === 0 || t.scrolls, `${t.id}: ${t.cut.join(', ')}`).toBe(true);
      // At 1280 px the tables take the page's width: nothing of the headers is cut at all.
      if (width === 1280)
        expect(tables.filter((t) => t.id !== 'report-orders').flatMap((t) => t.cut)).toEqual([]);
      const labels = await chartLabels(page);
      expect(labels.bad).toEqual([]);
      // Thinned, not dropped: both curve charts and the history keep labels on their axes.
      expect(labels.count).toBeGreaterThan(20);
      expect(await page.locator('.chart svg').count()).toBe(3);
      // Sequential names, as docs/MARKET.md gives them (not the hex of noise-000a).
      const names = await page.locator('#balances-table tbody td:first-child').allTextContents();
      expect(names).toContain('noise-0010');
      expect(names).toContain('noise-0200');
      expect(names).toContain('lp-04');
      expect(new Set(names).size).toBe(names.length);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${SHOTS}/dashboard-busy-${width}.png`, fullPage: true });
      if (width === 1280) {
        // The README's picture (docs/dashboard.png): the top of the page after one more clear (so
        // that the event log has lines), as a visitor first sees it.
        sim.clearAuction();
        await expect.poll(() => page.textContent('#auction-id')).toBe('5');
        await expect.poll(() => page.locator('#log-list li').count()).toBeGreaterThan(10);
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: `${SHOTS}/dashboard-busy-1280x800.png` });
      }
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  it("the clearing report's and the orders table's shortened ids are all different, each a prefix of its id", async () => {
    const { page, problems } = await busyPage(1280);
    for (const cells of ['#report-orders tbody .id', '#orders-table tbody .id']) {
      const ids = await page
        .locator(cells)
        .evaluateAll((spans) =>
          spans.map((s) => ({ text: s.textContent as string, id: s.getAttribute('title') as string })),
        );
      expect(ids.length).toBeGreaterThan(100);
      const textOf = new Map(ids.map((i) => [i.id, i.text]));
      // Different ids, different texts (an id shown twice, as an order and as a parent, reads the same).
      expect(new Set(textOf.values()).size).toBe(textOf.size);
      for (const { text, id } of ids) {
        expect(id.startsWith(text)).toBe(true);
        expect(text.length).toBeGreaterThanOrEqual(8);
      }
    }
    // The background orders of one auction share the first 8 characters; the page shows more.
    const report = await page.locator('#report-orders tbody td:first-child').allTextContents();
    expect(report.filter((t) => t === '00000003')).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('axe finds no serious or critical violation on the busy page with a report open', async () => {
    const { page, problems } = await busyPage(1280);
    await page.evaluate(axeSource);
    const results = (await page.evaluate(() =>
      (window as unknown as { axe: { run(): Promise<unknown> } }).axe.run(),
    )) as { violations: { id: string; impact: string; nodes: unknown[] }[] };
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => `${v.impact} ${v.id} (${v.nodes.length})`)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('an empty book shows its empty state, not a chart; the first order brings the chart', async () => {
    const empty = createSimulator({ clock: 'manual', logger: quiet });
    try {
      const running = await empty.listen({ port: 0, ui: true });
      const page = await browser.newPage({ viewport: { width: 400, height: 800 } });
      await page.goto(running.uiUrl as string);
      await expect.poll(() => page.textContent('#conn')).toBe('live');
      await expect.poll(() => page.textContent('#curves')).toContain('The book is empty');
      expect(await page.locator('#curves svg, #curves rect').count()).toBe(0);
      await page.screenshot({ path: `${SHOTS}/dashboard-empty-book.png`, fullPage: true });
      const minter = new MatchVenue({ apiKey: SEEDED.minter.apiKey, baseUrl: running.url });
      await minter.orders.place({
        orderType: 'MINT',
        amount: usd('600'),
        feeBps: '2',
        postFillAction: 'cancel',
      });
      await page.waitForSelector('#curves svg');
      expect(await page.locator('#curves .empty').count()).toBe(0);
      await page.close();
    } finally {
      await empty.close();
    }
  });
});
