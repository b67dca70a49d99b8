import { createSimulator, SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';

async function ticket(sim: ReturnType<typeof createSimulator>) {
  const res = await sim.handle(
    new Request('http://sim/v1/match/ws/ticket', {
      method: 'POST',
      headers: { authorization: `Bearer ${SEEDED.burner.apiKey}` },
    }),
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { ticket: string; expiresAt: string } }).data;
}

describe('ticket lifetime', () => {
  it('is 30 s on the simulator clock by default', async () => {
    // A whole-second start: a JWT's exp is whole seconds, so the lifetime reads exactly.
    const sim = createSimulator({ startTime: '2026-01-01T00:00:00.000Z' });
    const { expiresAt } = await ticket(sim);
    expect(Date.parse(expiresAt) - sim.now()).toBe(30_000);
    await sim.close();
  });

  it('follows ticketTtlMs, and a ticket past it no longer verifies', async () => {
    const sim = createSimulator({ startTime: '2026-01-01T00:00:00.000Z', ticketTtlMs: 2_000 });
    const { ticket: t, expiresAt } = await ticket(sim);
    expect(Date.parse(expiresAt) - sim.now()).toBe(2_000);
    sim.advance(2_001);
    await expect(sim.tickets.verify(t)).rejects.toMatchObject({ reason: 'expired' });
    await sim.close();
  });
});
