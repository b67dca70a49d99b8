/**
 * The dashboard's page weight (`npm run size` prints it after the SDK bundle): every file the page
 * loads from the simulator (`/_sim/ui`), raw and gzip, read from the module the simulator serves
 * them from. Nothing else is fetched: no CDN, no font, no image.
 */
import { gzipSync } from 'node:zlib';
import { UI_ASSETS } from '../src/simulator/ui/assets.generated.js';

export interface PageWeightRow {
  file: string;
  rawKB: number;
  gzipKB: number;
}

const kb = (bytes: number): number => Number((bytes / 1024).toFixed(1));

export function measureDashboard(): PageWeightRow[] {
  let raw = 0;
  let gzip = 0;
  const rows = Object.entries(UI_ASSETS).map(([file, { body }]) => {
    const bytes = Buffer.from(body, 'utf8');
    const zipped = gzipSync(bytes).length;
    raw += bytes.length;
    gzip += zipped;
    return { file, rawKB: kb(bytes.length), gzipKB: kb(zipped) };
  });
  return [{ file: '(page total)', rawKB: kb(raw), gzipKB: kb(gzip) }, ...rows];
}
