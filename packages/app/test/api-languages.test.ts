/**
 * The signed API never changes with the language (docs/i18n.md: machine output is the same in
 * every language): one real app on an injected clock answers the same requests — the data
 * endpoints, a report by activity and by day, and the refusals (their status, `code`,
 * `message` and `details`) — with the setting `language` at `"en"`, `"de"` and `"ja"`, and with
 * `"system"` under `LANG=de_DE.UTF-8`; every answer is byte for byte English's.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startApp } from '../src/app.ts';
import { type SignedCall, signed } from './support/signed.ts';
import { freePort } from './ui-support/harness.ts';

/** 15:00 of a fixed day in the run's zone. */
const NOW = new Date(2026, 10, 24, 15).getTime();
const at = (hours: number, minutes: number): string => new Date(2026, 10, 24, hours, minutes).toISOString();

/** Reads that change nothing, and refusals that change nothing: the same answer whenever asked. */
const CALLS: SignedCall[] = [
  { target: '/healthcheck' },
  { target: '/current' },
  { target: '/status' },
  { target: '/activities/search?q=&limit=5' },
  { target: '/activities/search?q=re' },
  { target: '/report?from=2026-11-20&to=2026-11-24' },
  { target: '/report?from=2026-11-20&to=2026-11-24&by=day' },
  { target: '/activities/search?limit=0' },
  { target: '/report?from=2026-11-24&to=2026-11-20' },
  { target: '/report?from=24.11.2026' },
  { target: '/activities/start', body: { name: 'Nobody here' } },
  { target: '/activities/start', body: { name: 'Review', activityID: '7d0f4f3c-51a1-4c61-a7a7-6a3c4b1f0c11' } },
  { target: '/entries', body: { name: 'Review', durationMinutes: 0 } },
  { target: '/entries', body: { name: 'Review', durationMinutes: '10' } },
  { target: '/branch-changed', body: { branch: '   ' } },
];

describe('the API in every language', () => {
  const home = mkdtempSync(join(tmpdir(), 'tock-api-lang-'));
  after(() => rmSync(home, { recursive: true, force: true }));

  it('answers the same bytes with language en, de, ja and system under a German LANG: data, reports, refusals', async () => {
    const app = await startApp({ home, clock: () => NOW, env: { ...process.env, LANG: 'de_DE.UTF-8', LC_ALL: '', LC_MESSAGES: '', TOCK_CREDENTIAL_STORE: 'file', TOCK_LICENSE_PUBLIC_KEY: '' } });
    after(() => app.stop());
    const port = await freePort();
    await app.services.listener.enable(port);
    const token = app.services.tokens.current() as string;
    const t = app.services.tracker;
    t.logEntry({ name: 'Review', createIfMissing: true, durationMinutes: 95, endedAt: at(11, 30), note: 'Lieferung' });
    t.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 61, endedAt: new Date(2026, 10, 21, 10).toISOString() });
    t.startActivity({ name: 'Review' });

    const answers = async (): Promise<string[]> => {
      const said: string[] = [];
      for (const call of CALLS) {
        const answer = await signed(port, token, { ...call, timestamp: Math.floor(NOW / 1000) });
        said.push(`${call.target} ${JSON.stringify(call.body ?? null)} → ${answer.status} ${JSON.stringify(answer.json)}`);
      }
      return said;
    };

    app.services.store.settings.set('language', 'en');
    const english = await answers();
    // The refusals are among them, each with its code (and the rest are answers).
    assert.deepEqual(
      english.map((line) => / → (\d+) /.exec(line)?.[1]),
      ['200', '200', '200', '200', '200', '200', '200', '400', '400', '400', '404', '400', '400', '400', '400'],
      english.join('\n'),
    );
    assert.match(english[2] ?? '', /"todaySeconds":/);
    for (const language of ['de', 'ja', 'system']) {
      app.services.store.settings.set('language', language);
      assert.deepEqual(await answers(), english, `language ${language}`);
    }
  });
});
