// SVG charts built as DOM nodes (no innerHTML, no library): the strict CSP allows no inline
// style, so everything visual is a class from dashboard.css.
const NS = 'http://www.w3.org/2000/svg';
// dashboard.css sets this on `.chart text`: labels are measured in the font they are drawn in.
const FONT = '10px system-ui, sans-serif';
/** Space kept between two labels of an axis, in the chart's own units. */
const GAP = 6;

function el(name, attrs = {}, text) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

function svg(width, height, label) {
  return el('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label });
}

const amount = (money) => Number(money?.amount ?? 0);

let context;
/**
 * A label's width in the chart's units. The SVG scales with its box, font size included, so the
 * width in units is the same at every screen width. A canvas measures without a layout; where it
 * cannot, 0.65 em a character (wider than any digit of a sans font) keeps labels apart anyway.
 */
function textWidth(text) {
  context ??= document.createElement('canvas').getContext('2d');
  if (!context) return text.length * 6.5;
  context.font = FONT;
  return context.measureText(text).width;
}

/**
 * An axis's labels at height `y`, each centred on its x unless that would cross `from` or `to`
 * (then moved inside). Taken in order of `rank` (lower first), a label that would come within GAP
 * of one already placed is left out: busy books have hundreds of regions, and no two labels may
 * overlap however many there are.
 */
function axisLabels(root, labels, { y, from, to }) {
  const placed = [];
  for (const l of [...labels].sort((a, b) => a.rank - b.rank)) {
    const w = textWidth(l.text);
    if (w > to - from) continue;
    const left = Math.min(Math.max(l.x - w / 2, from), to - w);
    if (placed.some((p) => left < p.right + GAP && left + w + GAP > p.left)) continue;
    placed.push({ left, right: left + w });
    root.append(el('text', { x: left, y }, l.text));
  }
}

/** A region's label: its fee (a point) or its span; the open ends are "below" / "above". */
function regionLabel(r) {
  if (r.fromBps === r.toBps) return r.fromBps;
  if (r.fromBps === null) return r.toBps === null ? 'any' : `<${r.toBps}`;
  if (r.toBps === null) return `>${r.fromBps}`;
  return '';
}

/** Whether a book has nothing to draw: no region with volume on either side (an empty book). */
export function isEmptyBook(curves) {
  return !curves?.some((r) => amount(r.burn) > 0 || amount(r.mint) > 0);
}

/**
 * A chart's width in its own units: the width of the box it is drawn into, so that one unit is one
 * pixel and a 10px label reads as 10px on a phone and on a wide screen (a fixed 560 shrank labels
 * to 6px at 400 px and blew them up to 22px across a full-width report). 560 where the box has no
 * width yet (hidden).
 */
const chartWidth = (width) => Math.max(300, Math.round(width) || 560);

/**
 * The step curves of a report's `curves` (equal-width regions: the axis is the book's own limits,
 * not a linear fee scale), the chosen span shaded, drawn `width` px wide.
 */
export function curvesChart(curves, feeBps, width) {
  const W = chartWidth(width);
  const H = 212;
  const n = Math.max(curves.length, 1);
  const max = Math.max(1, ...curves.map((r) => Math.max(amount(r.burn), amount(r.mint))));
  const top = max.toLocaleString('en-US');
  // The left margin fits the volume axis's longest label, so it never runs into the plot.
  const pad = { l: Math.ceil(textWidth(top)) + 10, r: 6, t: 22, b: 44 };
  const step = (W - pad.l - pad.r) / n;
  const x = (i) => pad.l + i * step;
  const y = (v) => pad.t + (H - pad.t - pad.b) * (1 - v / max);
  const root = svg(
    W,
    H,
    `BURN and MINT eligible volume over ${curves.length} fee regions; fee ${feeBps} bps`,
  );
  const labels = [];
  curves.forEach((r, i) => {
    if (r.chosen)
      root.append(el('rect', { class: 'chosen', x: x(i), y: pad.t, width: step, height: H - pad.t - pad.b }));
    const text = regionLabel(r);
    // The chosen region's label first, then left to right: the chosen one is never thinned out.
    if (text) labels.push({ x: x(i) + step / 2, text, rank: r.chosen ? -1 : i });
  });
  axisLabels(root, labels, { y: H - pad.b + 14, from: pad.l, to: W - 2 });
  for (const side of ['burn', 'mint']) {
    let d = '';
    curves.forEach((r, i) => {
      const v = y(amount(r[side]));
      d += `${i === 0 ? 'M' : 'L'}${x(i)},${v} L${x(i + 1)},${v} `;
    });
    if (d) root.append(el('path', { class: side, d }));
  }
  root.append(el('line', { class: 'axis', x1: pad.l, x2: W - pad.r, y1: H - pad.b, y2: H - pad.b }));
  root.append(el('text', { x: 2, y: 10 }, 'USD'));
  root.append(el('text', { x: pad.l - 4, y: pad.t + 4, 'text-anchor': 'end' }, top));
  root.append(el('text', { x: pad.l - 4, y: H - pad.b, 'text-anchor': 'end' }, '0'));
  root.append(el('text', { x: pad.l, y: H - 8 }, 'fee (bps) →   BURN: solid   MINT: dashed'));
  return root;
}

/** Matched volume bars and clearing-fee dots, oldest left; a bar's click opens that auction. */
export function historyChart(auctions, onPick, width) {
  const W = chartWidth(width);
  const H = 190;
  const list = [...auctions].reverse();
  const vmax = Math.max(1, ...list.map((a) => amount(a.matchedVolume)));
  const fmax = Math.max(1, ...list.map((a) => Number(a.clearingFeeBps ?? 0)));
  const volumeTop = vmax.toLocaleString('en-US');
  const feeTop = `${fmax} bps`;
  // Both margins fit their axis's top label: the fee's on the right stays inside the picture.
  const pad = { l: Math.ceil(textWidth(volumeTop)) + 10, r: Math.ceil(textWidth(feeTop)) + 8, t: 22, b: 26 };
  const step = (W - pad.l - pad.r) / Math.max(list.length, 1);
  const inner = H - pad.t - pad.b;
  const root = svg(W, H, `Matched volume and clearing fee of the last ${list.length} cleared auctions`);
  const labels = [];
  list.forEach((a, i) => {
    const h = (inner * amount(a.matchedVolume)) / vmax;
    const bar = el('rect', {
      class: 'bar',
      x: pad.l + i * step + 1,
      y: pad.t + inner - h,
      width: Math.max(step - 2, 1),
      height: Math.max(h, 1),
    });
    bar.append(
      el('title', {}, `auction ${a.auctionId}: ${a.matchedVolume.amount} USD at ${a.clearingFeeBps} bps`),
    );
    bar.addEventListener('click', () => onPick(a.auctionId));
    root.append(bar);
    const fy = pad.t + inner * (1 - Number(a.clearingFeeBps ?? 0) / fmax);
    root.append(el('circle', { class: 'fee-dot', cx: pad.l + (i + 0.5) * step, cy: fy, r: 3 }));
    // The newest auction's label first (it is the one just cleared), then from the right.
    labels.push({ x: pad.l + (i + 0.5) * step, text: String(a.auctionId), rank: list.length - i });
  });
  axisLabels(root, labels, { y: H - 8, from: pad.l, to: W - pad.r });
  root.append(el('text', { x: 2, y: 10 }, 'USD'));
  root.append(el('text', { x: pad.l - 4, y: pad.t + 4, 'text-anchor': 'end' }, volumeTop));
  root.append(el('text', { x: W - 2, y: pad.t + 4, 'text-anchor': 'end' }, feeTop));
  root.append(el('line', { class: 'axis', x1: pad.l, x2: W - pad.r, y1: H - pad.b, y2: H - pad.b }));
  return root;
}
