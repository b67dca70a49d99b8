// SVG charts built as DOM nodes (no innerHTML, no library): the strict CSP allows no inline
// style, so everything visual is a class from dashboard.css.
const NS = 'http://www.w3.org/2000/svg';

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

/** A region's label: its fee (a point) or its span; the open ends are "below" / "above". */
function regionLabel(r) {
  if (r.fromBps === r.toBps) return r.fromBps;
  if (r.fromBps === null) return r.toBps === null ? 'any' : `<${r.toBps}`;
  if (r.toBps === null) return `>${r.fromBps}`;
  return '';
}

/**
 * The step curves of a report's `curves` (equal-width regions: the axis is the book's own limits,
 * not a linear fee scale), the chosen span shaded.
 */
export function curvesChart(curves, feeBps) {
  const W = 560;
  const H = 200;
  const pad = { l: 70, r: 10, t: 10, b: 30 };
  const n = Math.max(curves.length, 1);
  const max = Math.max(1, ...curves.map((r) => Math.max(amount(r.burn), amount(r.mint))));
  const step = (W - pad.l - pad.r) / n;
  const x = (i) => pad.l + i * step;
  const y = (v) => pad.t + (H - pad.t - pad.b) * (1 - v / max);
  const root = svg(
    W,
    H,
    `BURN and MINT eligible volume over ${curves.length} fee regions; fee ${feeBps} bps`,
  );
  curves.forEach((r, i) => {
    if (r.chosen)
      root.append(el('rect', { class: 'chosen', x: x(i), y: pad.t, width: step, height: H - pad.t - pad.b }));
    // A busy book has hundreds of regions: label about a dozen of them, always the chosen one.
    const label = regionLabel(r);
    if (label && (r.chosen || i % Math.ceil(n / 12) === 0))
      root.append(el('text', { x: x(i) + step / 2, y: H - 12, 'text-anchor': 'middle' }, label));
  });
  for (const side of ['burn', 'mint']) {
    let d = '';
    curves.forEach((r, i) => {
      const v = y(amount(r[side]));
      d += `${i === 0 ? 'M' : 'L'}${x(i)},${v} L${x(i + 1)},${v} `;
    });
    if (d) root.append(el('path', { class: side, d }));
  }
  root.append(el('line', { class: 'axis', x1: pad.l, x2: W - pad.r, y1: H - pad.b, y2: H - pad.b }));
  root.append(el('text', { x: 4, y: pad.t + 8 }, `${max.toLocaleString()} USD`));
  root.append(el('text', { x: 4, y: H - pad.b }, '0'));
  root.append(el('text', { x: pad.l, y: H - 1 }, 'fee (bps) →   BURN: solid   MINT: dashed'));
  return root;
}

/** Matched volume bars and clearing-fee dots, oldest left; a bar's click opens that auction. */
export function historyChart(auctions, onPick) {
  const W = 560;
  const H = 180;
  const pad = { l: 70, r: 40, t: 10, b: 24 };
  const list = [...auctions].reverse();
  const vmax = Math.max(1, ...list.map((a) => amount(a.matchedVolume)));
  const fmax = Math.max(1, ...list.map((a) => Number(a.clearingFeeBps ?? 0)));
  const step = (W - pad.l - pad.r) / Math.max(list.length, 1);
  const inner = H - pad.t - pad.b;
  const root = svg(W, H, `Matched volume and clearing fee of the last ${list.length} cleared auctions`);
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
    if (list.length <= 20 || i % 5 === 0)
      root.append(
        el('text', { x: pad.l + (i + 0.5) * step, y: H - 8, 'text-anchor': 'middle' }, a.auctionId),
      );
  });
  root.append(el('text', { x: 4, y: pad.t + 8 }, `${vmax.toLocaleString()} USD`));
  root.append(el('text', { x: W - pad.r + 4, y: pad.t + 8 }, `${fmax} bps`));
  root.append(el('line', { class: 'axis', x1: pad.l, x2: W - pad.r, y1: H - pad.b, y2: H - pad.b }));
  return root;
}
