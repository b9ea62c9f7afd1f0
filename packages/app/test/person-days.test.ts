/**
 * The person's day and week as the app's routes pass them to core (person-days.ts, docs/data.md
 * "Days and weeks"): the setting `weekStart` wins; `"locale"` is the language in the
 * environment's region, English without a region Monday (docs/decisions.md).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SettingsStore } from '@tock/core';
import { environmentRegion } from '@tock/i18n/languages';
import { personDays, weekLocale } from '../src/person-days.ts';

function settings(values: Record<string, unknown>): SettingsStore {
  const map = new Map(Object.entries(values));
  return {
    get: <T>(key: string) => map.get(key) as T | undefined,
    set: (key, value) => void map.set(key, value),
    delete: (key) => map.delete(key),
  };
}

describe('the person\'s day and week', () => {
  it('the region comes from LC_ALL, then LC_TIME, then LANG; C, POSIX and a bare language have none', () => {
    assert.equal(environmentRegion({ LANG: 'en_GB.UTF-8' }), 'GB');
    assert.equal(environmentRegion({ LANG: 'en_US.UTF-8', LC_TIME: 'de_DE.UTF-8' }), 'DE');
    assert.equal(environmentRegion({ LC_ALL: 'fr_CA.UTF-8', LC_TIME: 'de_DE', LANG: 'en_US' }), 'CA');
    assert.equal(environmentRegion({ LC_ALL: '', LANG: 'es_MX@euro' }), 'MX');
    for (const name of ['C', 'C.UTF-8', 'POSIX', 'en', 'en.UTF-8', undefined]) assert.equal(environmentRegion({ LANG: name }), null, String(name));
  });

  it('"locale": en_GB Monday, en_US Sunday, a bare en or C Monday, ja Sunday, de Monday', () => {
    const locale = settings({});
    const week = (env: Record<string, string>) => personDays(locale, env).weekStart;
    assert.equal(week({ LANG: 'en_GB.UTF-8' }), 1);
    assert.equal(week({ LANG: 'en_US.UTF-8' }), 7);
    assert.equal(week({ LANG: 'C.UTF-8' }), 1);
    assert.equal(week({ LANG: 'C' }), 1);
    assert.equal(week({ LANG: 'en' }), 1);
    assert.equal(week({}), 1);
    assert.equal(week({ LANG: 'ja_JP.UTF-8' }), 7);
    assert.equal(week({ LANG: 'de_DE.UTF-8' }), 1);
    assert.equal(week({ LANG: 'ar_EG.UTF-8' }), 6, 'a region that starts on Saturday');
  });

  it('the language setting with the environment\'s region: en in Germany Monday, de in the US Sunday, ja without a region Sunday', () => {
    assert.equal(weekLocale(settings({ language: 'en' }), { LANG: 'de_DE.UTF-8' }), 'en-DE');
    assert.equal(personDays(settings({ language: 'en' }), { LANG: 'de_DE.UTF-8' }).weekStart, 1);
    assert.equal(personDays(settings({ language: 'de' }), { LANG: 'en_US.UTF-8' }).weekStart, 7);
    assert.equal(personDays(settings({ language: 'ja' }), { LANG: 'C.UTF-8' }).weekStart, 7);
    assert.equal(weekLocale(settings({ language: 'en' }), { LANG: 'C' }), 'en-001');
  });

  it('the setting weekStart wins over the locale; dayStartsAt in minutes, midnight when not set', () => {
    const us = { LANG: 'en_US.UTF-8' };
    assert.deepEqual(personDays(settings({ weekStart: 'mon', dayStartsAt: '04:00' }), us), { dayStartsAt: 240, weekStart: 1 });
    assert.deepEqual(personDays(settings({ weekStart: 'sat' }), us), { dayStartsAt: 0, weekStart: 6 });
    assert.deepEqual(personDays(settings({ weekStart: 'sun' }), { LANG: 'en_GB.UTF-8' }), { dayStartsAt: 0, weekStart: 7 });
  });
});
