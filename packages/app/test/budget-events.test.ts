/**
 * Budgets against the real application (docs/data.md "The ledger"): an entry logged through
 * the listener that takes an activity past 80 % sends one signed `budget` event on the open
 * stream and one desktop notification (through a stand-in notifier) with the activity's name as
 * data; 100 % follows once; a restart announces nothing again; and the text of the
 * notification for a hostile name.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { authHeaders, freshNonce } from '@tock/listener/testing';
import { StreamReader, expectedEventSig } from '@tock/listener/testing';
import { setActivityLedger } from '@tock/core';
import { startApp } from '../src/app.ts';
import { budgetNotification } from '@tock/desktop/budget-notice';
import type { DesktopNotification } from '@tock/desktop/notify';
import { freePort } from './ui-support/harness.ts';
import { signed } from './support/signed.ts';

const homes: string[] = [];
after(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

/** A name with every quote and shell character docs/security.md lists. */
const HOSTILE = 'Design \'"`$; \u2018\u201b\u201c\u201f';

async function appWithNotifier(home: string, clock: { now: number }, sent: DesktopNotification[]) {
  const app = await startApp({
    home,
    clock: () => clock.now,
    env: { ...process.env, TOCK_CREDENTIAL_STORE: 'file', TOCK_LICENSE_PUBLIC_KEY: '' },
    desktop: { idleSources: () => [], notifier: { name: 'stand-in', notify: async (n) => void sent.push(n) }, timers: false },
  });
  return app;
}

describe('budget events from the running app', () => {
  it('sends a signed budget event and a notification at 80 % and at 100 %, once each, and not again after a restart', async (t) => {
    const clock = { now: Date.now() };
    const home = mkdtempSync(join(tmpdir(), 'tock-budget-'));
    homes.push(home);
    const sent: DesktopNotification[] = [];
    const app = await appWithNotifier(home, clock, sent);
    const port = await freePort();
    await app.services.listener.enable(port);
    const token = app.services.tokens.current()!;
    const timestamp = () => Math.floor(clock.now / 1000);
    const first = await signed(port, token, { target: '/entries', body: { name: HOSTILE, createIfMissing: true, durationMinutes: 60 }, timestamp: timestamp() });
    assert.equal(first.status, 201, JSON.stringify(first.json));
    const activityID = first.json.result.activity.activityID as string;
    // Set as `tock activity set --budget 2` does.
    setActivityLedger(app.services.store, activityID, { budgetHours: 2 });

    const nonce = freshNonce();
    const r = Object.assign(
      await StreamReader.open(port, { host: `127.0.0.1:${port}`, ...authHeaders({ method: 'GET', target: '/events', body: '', timestamp: String(timestamp()), nonce, token }) }),
      { nonce },
    );
    t.after(() => r.close());
    await r.until(() => r.events.length === 1);

    await signed(port, token, { target: '/entries', body: { activityID, durationMinutes: 40, endedAt: new Date(clock.now - 2 * 3600_000).toISOString() }, timestamp: timestamp() });
    await r.until(() => r.events.some((e) => e.event === 'budget'));
    const budget = r.events.find((e) => e.event === 'budget')!;
    assert.equal(budget.data, JSON.stringify({ activityID, activityName: HOSTILE, usedSeconds: 6000, budgetSeconds: 7200, percent: 80 }));
    assert.equal(budget.sig, expectedEventSig(r.nonce, budget, token));
    assert.deepEqual(sent, [{ title: `${HOSTILE}: 80 % of the budget`, body: '1 h 40 min worked of a 2 h budget.' }]);

    await signed(port, token, { target: '/entries', body: { activityID, durationMinutes: 5, endedAt: new Date(clock.now - 3 * 3600_000).toISOString() }, timestamp: timestamp() });
    await signed(port, token, { target: '/entries', body: { activityID, durationMinutes: 30, endedAt: new Date(clock.now - 4 * 3600_000).toISOString() }, timestamp: timestamp() });
    await r.until(() => r.events.filter((e) => e.event === 'budget').length === 2);
    const full = r.events.filter((e) => e.event === 'budget')[1]!;
    assert.equal((JSON.parse(full.data ?? '{}') as { percent: number }).percent, 100);
    assert.equal(sent.length, 2);
    assert.equal(sent[1]?.title, `${HOSTILE}: budget used up`);
    await app.stop();

    const again = await appWithNotifier(home, clock, sent);
    const againPort = again.services.listener.status().port as number;
    const later = await signed(againPort, again.services.tokens.current()!, { target: '/entries', body: { activityID, durationMinutes: 10, endedAt: new Date(clock.now - 5 * 3600_000).toISOString() }, timestamp: timestamp() });
    assert.equal(later.status, 201);
    assert.equal(sent.length, 2, 'nothing announced twice across a restart');
    assert.equal(again.services.store.statement('SELECT budget_announced AS a FROM activities WHERE id = ?').get(activityID)?.a, 100);
    await again.stop();
  });
});

describe('the budget notification', () => {
  it('names the activity as data and says the hours worked of the hours budgeted', () => {
    const crossing = { activityID: 'a', activityName: HOSTILE, usedSeconds: 8 * 3600 + 59, budgetSeconds: 36_000, percent: 80 as const };
    assert.deepEqual(budgetNotification(crossing), { title: `${HOSTILE}: 80 % of the budget`, body: '8 h worked of a 10 h budget.' });
    assert.deepEqual(budgetNotification({ ...crossing, usedSeconds: 36_000, percent: 100 }), { title: `${HOSTILE}: budget used up`, body: '10 h worked of a 10 h budget.' });
  });
});
