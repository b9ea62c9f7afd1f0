/**
 * The editors' status line counts today from the person's `dayStartsAt` (docs/data.md "Days and
 * weeks"), as Today and the tray do: a real app on an injected clock, its WakaTime door on a
 * real socket. At 05:00 with the day starting at 04:00, a block 01:30–02:30 is yesterday's.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startApp } from '../src/app.ts';
import { freePort } from './ui-support/harness.ts';

const TODAY = '/wakatime/api/v1/users/current/statusbar/today';
/** 05:00 of a fixed day in the run's zone: past midnight, past a 04:00 day start. */
const FIVE = new Date(2026, 10, 24, 5).getTime();
const at = (hours: number, minutes: number): string => new Date(2026, 10, 24, hours, minutes).toISOString();

async function statusLine(port: number, key: string): Promise<{ date: string; seconds: number }> {
  const answer = await fetch(`http://127.0.0.1:${port}${TODAY}`, { headers: { authorization: `Basic ${Buffer.from(key).toString('base64')}`, 'user-agent': 'wakatime/v1.90.0 (linux) go1.22 vscode/1.96.0 vscode-wakatime/25.0.0' } });
  assert.equal(answer.status, 200);
  const body = (await answer.json()) as { data: { grand_total: { total_seconds: number }; range: { date: string } } };
  return { date: body.data.range.date, seconds: body.data.grand_total.total_seconds };
}

describe('the status line and dayStartsAt', () => {
  const home = mkdtempSync(join(tmpdir(), 'tock-sl-'));
  after(() => rmSync(home, { recursive: true, force: true }));

  it('at 05:00 with the day starting at 04:00, a block 01:30–02:30 is yesterday\'s; at midnight it is today\'s', async () => {
    const app = await startApp({ home, clock: () => FIVE, env: { ...process.env, TOCK_CREDENTIAL_STORE: 'file' } });
    after(() => app.stop());
    const port = await freePort();
    await app.services.listener.enable(port);
    const { key } = app.services.editors.enable();
    app.services.tracker.logEntry({ name: 'Night', createIfMissing: true, durationMinutes: 60, endedAt: at(2, 30) });
    app.services.tracker.logEntry({ name: 'Morning', createIfMissing: true, durationMinutes: 30, endedAt: at(4, 50) });

    assert.deepEqual(await statusLine(port, key), { date: '2026-11-24', seconds: 90 * 60 }, 'from midnight: both blocks');
    app.services.store.settings.set('dayStartsAt', '04:00');
    assert.deepEqual(await statusLine(port, key), { date: '2026-11-24', seconds: 30 * 60 }, 'from 04:00: only the block after it');
  });
});
