/**
 * The CLI's times of day follow the desktop setting `clockFormat` (docs/cli.md, human output):
 * the formatter on each clock, and end to end against a real app set to the 12-hour clock —
 * `tock start`, `tock status`, `tock log`, `tock start`'s overlap warning — and on the 24-hour
 * clock when no app answers under `TOCK_HOME`. Unset, the setting follows the app's locale
 * (`en_US` 12-hour, `en_GB` 24-hour); set, or saved whole by an older app, it is as set.
 */
process.env.TZ = 'Europe/Berlin';

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startApp } from '@tock/app/start';
import { tempDirs } from '@tock/test-support';
import { formatClock, formatSpan, timeOfDay, timeOfDayIn } from '../src/format-time.ts';
import { freePort, tock } from './real-app.ts';

const tempDir = tempDirs();

/** 2026-11-18 at `h:m` in Berlin. */
const local = (h: number, m: number, day = 18): string => new Date(2026, 10, day, h, m).toISOString();
const NOW = new Date(2026, 10, 18, 16, 0);

describe('formatClock on each clock', () => {
  it('writes the 24-hour clock by default and the 12-hour one as the window does', () => {
    assert.equal(formatClock(local(9, 14), NOW), '09:14');
    assert.equal(formatClock(local(9, 14), NOW, '12h'), '9:14 AM');
    assert.equal(formatClock(local(0, 5), NOW, '12h'), '12:05 AM');
    assert.equal(formatClock(local(12, 0), NOW, '12h'), '12:00 PM');
    assert.equal(formatClock(local(17, 2), NOW, '12h'), '5:02 PM');
    assert.equal(formatClock(local(17, 2, 17), NOW, '12h'), '2026-11-17 5:02 PM');
    assert.equal(formatSpan(local(23, 30, 17), local(0, 15), NOW, '12h'), '2026-11-17 11:30 PM–2026-11-18 12:15 AM');
    assert.equal(timeOfDay(13, 7, '24h'), '13:07');
    assert.equal(timeOfDayIn('2026-11-18T12:07:00.000Z', 'Asia/Tokyo', '12h'), '9:07 PM');
    assert.equal(timeOfDayIn('2026-11-18T12:07:00.000Z', 'Asia/Tokyo'), '21:07');
  });

  it('writes the 12-hour clock in the CLI’s language: a. m./p. m. in Spanish, 午前/午後 before the time in Japanese', () => {
    const es = { setting: '12h', locale: 'es' } as const;
    const ja = { setting: '12h', locale: 'ja' } as const;
    assert.equal(formatClock(local(17, 2), NOW, es), '5:02 p. m.');
    assert.equal(formatClock(local(0, 5), NOW, es), '12:05 a. m.');
    assert.equal(formatClock(local(17, 2), NOW, ja), '午後5:02');
    assert.equal(formatSpan(local(23, 30, 17), local(0, 15), NOW, ja), '2026-11-17 午後11:30–2026-11-18 午前12:15');
    assert.equal(timeOfDayIn('2026-11-18T12:07:00.000Z', 'Asia/Tokyo', { setting: '12h', locale: 'de' }), '9:07 PM');
    assert.equal(formatClock(local(9, 14), NOW, { setting: '24h', locale: 'ja' }), '09:14');
  });

  it('reads system as the CLI’s language’s clock, not the process’s locale', () => {
    const at = local(15, 5);
    assert.equal(formatClock(at, NOW, { setting: 'system', locale: 'en' }), '3:05 PM');
    for (const locale of ['de', 'fr', 'es', 'ja'] as const) assert.equal(formatClock(at, NOW, { setting: 'system', locale }), '15:05', locale);
    assert.equal(formatClock(at, NOW, { setting: 'system', locale: 'en-XA' }), '3:05 PM');
  });
});

describe('the CLI follows the clock setting', { timeout: 60_000 }, () => {
  it('on 12h: tock start, status, log and the overlap warning; without an app: 24h', async () => {
    const home = tempDir('tock-clock-format-');
    const app = await startApp({ home, clock: () => Date.now(), env: { ...process.env, TOCK_CREDENTIAL_STORE: 'file', TOCK_LICENSE_PUBLIC_KEY: '' } });
    try {
      assert.equal(app.services.desktop.updateSettings({ clockFormat: '12h' }).clockFormat, '12h');
      const port = await freePort();
      await app.services.listener.enable(port);
      const env = { TOCK_HOME: home, TOCK_CREDENTIAL_STORE: 'file', SERVICE_TOKEN: app.services.tokens.current()!, SERVICE_PORT: String(port) };
      const twelve = '\\d{1,2}:\\d\\d [AP]M';

      const started = await tock(env, 'start', 'Plan', '--create');
      assert.equal(started.status, 0, started.err);
      assert.match(started.out, new RegExp(`^Started new activity "Plan" at ${twelve}$`));

      const status = await tock(env, 'status');
      assert.match(status.out, new RegExp(`^Tracking "Plan" since ${twelve} — `));
      // In the command's language: Spanish and Japanese words, Japanese's before the time.
      assert.match((await tock({ ...env, LANG: 'es_ES.UTF-8' }, 'status')).out, /\b\d{1,2}:\d\d [ap]\. m\./);
      assert.match((await tock({ ...env, LANG: 'ja_JP.UTF-8' }, 'status')).out, /午[前後]\d{1,2}:\d\d/);

      const logged = await tock(env, 'log', '15', 'Call', '--create');
      assert.equal(logged.status, 0, logged.err);
      assert.match(logged.out, new RegExp(`^Logged 15m to new activity "Call" \\(${twelve}–${twelve}\\)$`));

      // An entry ending ahead of now: the new session's warning names its times on the same clock.
      app.services.tracker.logEntry({ name: 'Review', createIfMissing: true, durationMinutes: 15, endedAt: new Date(Date.now() + 50_000).toISOString() });
      const switched = await tock(env, 'start', 'Write', '--create');
      assert.match(switched.err, new RegExp(`^warning: this overlaps "Review" \\(logged ${twelve}–${twelve}\\)`));

      // JSON keeps ISO times; a home with no app answering: the 24-hour clock.
      assert.match(JSON.parse((await tock(env, 'status', '--json')).out).since, /^\d{4}-\d\d-\d\dT/);
      const elsewhere = await tock({ ...env, TOCK_HOME: tempDir('tock-clock-format-none-') }, 'status');
      assert.match(elsewhere.out, /^Tracking "Write" since \d\d:\d\d — /);
    } finally {
      await app.stop();
    }
  });
});

/** The test run's environment with `LANG` as given and no `LC_ALL` or `LC_TIME` above it. */
function withLang(LANG: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LANG, TOCK_CREDENTIAL_STORE: 'file', TOCK_LICENSE_PUBLIC_KEY: '' };
  delete env['LC_ALL'];
  delete env['LC_TIME'];
  return env;
}

describe('an unset clockFormat follows the locale', { timeout: 60_000 }, () => {
  it('unset with en_US: 12h, the CLI too; unset with en_GB: 24h; an explicit 24h with en_US stays 24h', async () => {
    const home = tempDir('tock-clock-locale-');
    const us = await startApp({ home, clock: () => Date.now(), env: withLang('en_US.UTF-8') });
    try {
      assert.deepEqual([us.services.desktop.view().settings.clockFormat, us.services.desktop.view().settings.clockFormatSet], ['12h', false]);
      // Another setting changed: the clock is still not set, still the locale's.
      assert.equal(us.services.desktop.updateSettings({ idleThresholdMinutes: 5 }).clockFormat, '12h');
      us.services.tracker.startActivity({ name: 'Plan', createIfMissing: true });
      const status = await tock({ TOCK_HOME: home, TOCK_CREDENTIAL_STORE: 'file', LANG: 'C.UTF-8' }, 'status');
      assert.equal(status.status, 0, status.err);
      assert.match(status.out, /^Tracking "Plan" since \d{1,2}:\d\d [AP]M — /);
      // Set explicitly: 24h wins over en_US, and is kept across a restart.
      assert.deepEqual(us.services.desktop.updateSettings({ clockFormat: '24h' }), { ...us.services.desktop.settings(), clockFormat: '24h', clockFormatSet: true });
    } finally {
      await us.stop();
    }
    const again = await startApp({ home, clock: () => Date.now(), env: withLang('en_US.UTF-8') });
    try {
      assert.deepEqual([again.services.desktop.view().settings.clockFormat, again.services.desktop.view().settings.clockFormatSet], ['24h', true]);
      const status = await tock({ TOCK_HOME: home, TOCK_CREDENTIAL_STORE: 'file', LANG: 'C.UTF-8' }, 'status');
      assert.match(status.out, /^Tracking "Plan" since \d\d:\d\d — /);
    } finally {
      await again.stop();
    }

    const gb = await startApp({ home: tempDir('tock-clock-locale-gb-'), clock: () => Date.now(), env: withLang('en_GB.UTF-8') });
    try {
      assert.deepEqual([gb.services.desktop.view().settings.clockFormat, gb.services.desktop.view().settings.clockFormatSet], ['24h', false]);
    } finally {
      await gb.stop();
    }
  });

  it('a whole settings object saved before this change keeps its 24h under en_US', async () => {
    const home = tempDir('tock-clock-locale-old-');
    const first = await startApp({ home, clock: () => Date.now(), env: withLang('en_US.UTF-8') });
    try {
      // What an older app wrote on any change: every field, the clock at its old default.
      first.services.store.settings.set('desktop', {
        idleThresholdMinutes: 10,
        reminderEnabled: false,
        reminderAfterMinutes: 15,
        workingHours: { from: '09:00', to: '17:00', days: [1, 2, 3, 4, 5] },
        tray: true,
        clockFormat: '24h',
      });
    } finally {
      await first.stop();
    }
    const app = await startApp({ home, clock: () => Date.now(), env: withLang('en_US.UTF-8') });
    try {
      assert.deepEqual([app.services.desktop.view().settings.clockFormat, app.services.desktop.view().settings.clockFormatSet], ['24h', true]);
    } finally {
      await app.stop();
    }
  });
});
