/**
 * `tock report week` follows the person's week against a real app (docs/data.md "Days and
 * weeks"): the setting `weekStart` "sun", "mon", "sat", and "locale" as the app's environment
 * says it (`en_US.UTF-8` Sunday; `C.UTF-8`, the test environment's, Monday). The app and the
 * CLI run on the tests' pinned clock (scripts/pinned-clock.sh).
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { appEnv, spawnApp, type AppProcess } from '@tock/app/testing';
import { tock } from './real-app.ts';

const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const today = (): string => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
/** 1 Monday … 7 Sunday, of a `YYYY-MM-DD` day. */
const weekday = (day: string): number => new Date(`${day}T00:00:00Z`).getUTCDay() || 7;

async function weekDays(env: NodeJS.ProcessEnv, period = 'week'): Promise<string[]> {
  const run = await tock(env, 'report', period, '--by', 'day', '--json');
  assert.equal(run.status, 0, run.err);
  return (JSON.parse(run.out).rows as { date: string }[]).map((r) => r.date);
}

/** The environment without the test run's own locale variables, with `locale` as LANG. */
function envWith(lang: string): NodeJS.ProcessEnv {
  const env = appEnv({ LANG: lang });
  delete env['LC_ALL'];
  delete env['LC_TIME'];
  delete env['LC_MESSAGES'];
  return env;
}

describe('tock report week: the person\'s week', () => {
  const apps: { app: AppProcess; env: NodeJS.ProcessEnv }[] = [];
  const start = async (lang: string) => {
    const env = envWith(lang);
    apps.push({ app: await spawnApp(env), env });
    return env;
  };
  let plain: NodeJS.ProcessEnv;
  let us: NodeJS.ProcessEnv;

  before(async () => {
    plain = await start('C.UTF-8');
    us = await start('en_US.UTF-8');
  });

  after(async () => {
    for (const { app, env } of apps) {
      app.child.kill('SIGTERM');
      await app.exited;
      rmSync(env['TOCK_HOME'] as string, { recursive: true, force: true });
    }
  });

  for (const [value, first] of [['sun', 7], ['mon', 1], ['sat', 6]] as const) {
    it(`weekStart "${value}": the week and the last week are seven days from a ${['', 'Monday', '', '', '', '', 'Saturday', 'Sunday'][first]} holding today`, async () => {
      assert.equal((await tock(plain, 'settings', 'set', 'weekStart', `"${value}"`)).status, 0);
      const days = await weekDays(plain);
      assert.equal(days.length, 7);
      assert.equal(weekday(days[0] as string), first);
      assert.ok(days.includes(today()), `${today()} in ${days.join(' ')}`);
      const last = await weekDays(plain, 'last-week');
      assert.equal(weekday(last[0] as string), first);
      assert.equal(last[6], new Date(Date.parse(`${days[0]}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10), 'last week ends the day before this one starts');
    });
  }

  it('weekStart "locale": Monday with LANG=C.UTF-8 (English without a region), Sunday with en_US.UTF-8', async () => {
    assert.equal((await tock(plain, 'settings', 'set', 'weekStart', '"locale"')).status, 0);
    assert.equal(weekday((await weekDays(plain))[0] as string), 1);
    assert.equal(weekday((await weekDays(us))[0] as string), 7);
    assert.equal((await tock(us, 'settings', 'set', 'weekStart', '"mon"')).status, 0);
    assert.equal(weekday((await weekDays(us))[0] as string), 1, 'the setting wins over the region');
  });
});
