/**
 * The wall clock is stepped while the listener runs (docs/protocol.md "Request signing"):
 * with a monotonic clock injected, the nonce window, the restart guard and the lockout keep
 * measuring real time. Both clocks are the test's; nothing sleeps.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { START_MS, startHarness, type Harness } from './signed-client.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A listener whose wall clock (`harness.clock.now`) and monotonic clock move separately. */
async function steppable(t: TestContext, replayGuardStart = START_MS - HOUR): Promise<{ harness: Harness; pass: (ms: number) => void; step: (ms: number) => void }> {
  const monotonic = { now: 1_000 };
  const harness = await startHarness(t, { monotonic: () => monotonic.now, replayGuard: { startedAtMs: replayGuardStart } });
  return {
    harness,
    /** Real time passes: both clocks move. */
    pass: (ms) => {
      harness.clock.now += ms;
      monotonic.now += ms;
    },
    /** Someone sets the wall clock: only it moves. */
    step: (ms) => {
      harness.clock.now += ms;
    },
  };
}

describe('the listener when the wall clock is stepped', () => {
  it('still refuses a replay after the clock went forward a day and came back (the nonce was not forgotten)', async (t) => {
    const { harness, pass, step } = await steppable(t);
    const first = await harness.send({ target: '/status' });
    assert.equal(first.status, 200);
    const timestamp = Math.floor(harness.clock.now / 1000);
    pass(5_000);
    step(DAY);
    assert.equal((await harness.send({ target: '/status' })).status, 200, 'requests signed with the new time pass');
    step(-DAY);
    pass(5_000);
    const replay = await harness.send({ target: '/status', nonce: first.nonce, timestamp });
    assert.equal(replay.status, 409);
    assert.equal(replay.json.code, 'nonce_reused');
  });

  it('forgets a nonce after 180 s of real time, as without steps', async (t) => {
    const { harness, pass } = await steppable(t);
    const first = await harness.send({ target: '/status' });
    pass(181_000);
    // Signed anew with the same nonce (a client's rare collision, not a replay): the window is over.
    assert.equal((await harness.send({ target: '/status', nonce: first.nonce })).status, 200);
  });

  it('keeps a nonce while the clock, set back, makes its timestamp valid again', async (t) => {
    const { harness, pass, step } = await steppable(t);
    const first = await harness.send({ target: '/status' });
    const timestamp = Math.floor(harness.clock.now / 1000);
    step(-HOUR);
    pass(HOUR - 10_000); // the wall clock reads 10 s before the request's time again
    const replay = await harness.send({ target: '/status', nonce: first.nonce, timestamp });
    assert.equal(replay.json?.code, 'nonce_reused');
  });

  it('tells "signed before the start" in the clock\'s current frame, for 60 s of real time', async (t) => {
    const { harness, pass, step } = await steppable(t, START_MS);
    step(-HOUR);
    assert.equal((await harness.send({ target: '/status' })).status, 200, 'signed after the start, with the clock set back: accepted at once');
    step(HOUR + 30_000);
    const beforeStart = await harness.send({ target: '/status', timestamp: Math.floor(START_MS / 1000) - 5 });
    assert.equal(beforeStart.json?.code, 'clock_drift', 'signed before the start, within the skew of a clock set forward: refused');
    pass(60_000);
    assert.equal((await harness.send({ target: '/status' })).status, 200);
  });

  it('ends a lockout after its real duration, whatever the wall clock did', async (t) => {
    const { harness, pass, step } = await steppable(t);
    let locked: Awaited<ReturnType<Harness['sendBadSignature']>> | undefined;
    for (let i = 0; i < 20 && locked === undefined; i++) {
      const answer = await harness.sendBadSignature({ target: '/status' });
      if (answer.status === 429) locked = answer;
    }
    assert.ok(locked, 'bad signatures lead to a lockout');
    const retryAfter = Number(locked.headers['retry-after']);
    step(-HOUR);
    pass(retryAfter * 1000 + 1_000);
    assert.equal((await harness.send({ target: '/status' })).status, 200);
  });
});
