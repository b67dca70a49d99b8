/**
 * The startup lines about who may call the simulator: a generated control token is printed here,
 * once, and nowhere else (the request log never shows a header); a given one is never printed.
 */
import { CONTROL_TOKEN_HEADER } from '../http/access.js';
import type { RunningSimulator } from '../serve/listen.js';
import type { Output } from './log-format.js';

export function announceAccess(out: Output, running: RunningSimulator): void {
  const token = running.controlToken;
  if (token === undefined) return;
  const where = `${running.url}/_sim/*`;
  if (running.controlTokenGenerated)
    out.line(
      'access',
      { controlPlane: where, header: CONTROL_TOKEN_HEADER, controlToken: token, generated: true },
      `control plane ${where} needs header ${CONTROL_TOKEN_HEADER}: ${token} (generated: bound off ` +
        'loopback; set your own with --control-token or MATCH_VENUE_SIM_CONTROL_TOKEN)',
    );
  else
    out.line(
      'access',
      { controlPlane: where, header: CONTROL_TOKEN_HEADER, generated: false },
      `control plane ${where} needs header ${CONTROL_TOKEN_HEADER} with the token given at start`,
    );
}
