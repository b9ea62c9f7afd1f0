/**
 * `tock suggest` and `tock rules` against a real app started in this process with a stand-in
 * focus source and a pinned clock: a morning of editor heartbeats and windows becomes
 * suggestions; rules label them; `accept --all` fills the morning in and the day's report grows
 * by exactly the suggestions' seconds.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startApp, type RunningApp } from '@tock/app/start';
import type { FocusedWindow, FocusSource } from '@tock/app/testing';
import { recordHeartbeats, type RuleTest } from '@tock/core';
import type { Suggestions } from '@tock/protocol';
import { loadCliMessages } from '../src/i18n/index.ts';
import { formatRuleTest, formatSuggestions } from '../src/suggest-command.ts';
import { tockAt } from './real-app.ts';

process.env.TZ = 'UTC';
const MIN = 60_000;
const DAY = '2026-11-23';

describe('suggest and rules commands against a running app', () => {
  let app: RunningApp;
  let home: string;
  let env: NodeJS.ProcessEnv;
  const now = { ms: Date.parse(`${DAY}T08:00:00.000Z`) };
  let report: ((w: FocusedWindow | null) => void) | null = null;
  const tock = (...argv: string[]) => tockAt(() => new Date(now.ms), env, ...argv);
  const standIn: FocusSource = {
    id: 'x11',
    name: 'stand-in X11',
    check: async () => null,
    async follow(onFocus) {
      report = onFocus;
      onFocus({ app: 'firefox', title: 'Issues' });
      return { stop: () => void (report = null) };
    },
  };

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'tock-cli-suggest-'));
    env = { PATH: process.env.PATH, HOME: home, TOCK_HOME: home, TOCK_CREDENTIAL_STORE: 'file', TZ: 'UTC' };
    app = await startApp({
      home,
      env,
      clock: () => now.ms,
      desktop: { timers: false, notifier: { name: 'none', notify: async () => {} }, idleSources: () => [] },
      capture: { timers: false, focusSources: () => [standIn] },
    });
    // 08:00–08:30 firefox, 08:30–09:00 Code (the open span); heartbeats of "tock" 08:30–08:58.
    assert.equal((await tock('capture', 'on')).status, 0);
    now.ms += 30 * MIN;
    report?.({ app: 'Code', title: 'a.ts' });
    now.ms += 30 * MIN;
    const beats: { entity: string; time: number; project: string; branch: string }[] = [];
    for (let m = 30; m <= 56; m += 2) beats.push({ entity: '/src/a.ts', time: (Date.parse(`${DAY}T08:00:00.000Z`) + m * MIN) / 1000, project: 'tock', branch: 'main' });
    recordHeartbeats(app.services.store, beats, { userAgent: 'wakatime/1 vscode/1.96.0 vscode-wakatime/25.0.0', machine: 'm' }, { nowMs: now.ms, newId: () => crypto.randomUUID() });
  });

  after(async () => {
    await app.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('lists the day: unlabelled until an activity or a rule names it', async () => {
    const out = await tock('suggest');
    assert.equal(out.status, 0, out.err);
    assert.match(out.out, /2026-11-23: 1 suggestion\n\d{8}-[0-9a-f]{16}  08:00–09:00 +1h  \(no label\)/);
    const json = JSON.parse((await tock('suggest', DAY, '--json')).out) as Suggestions;
    assert.deepEqual(json.suggestions.map((s) => [s.start, s.end, s.activityName]), [[`${DAY}T08:00:00.000Z`, `${DAY}T09:00:00.000Z`, null]]);
    // Accepting it without an activity names the flag that gives one, not the API's field.
    const id = json.suggestions[0]!.id;
    const bare = await tock('suggest', 'accept', id);
    assert.deepEqual([bare.status, bare.err.trim()], [1, 'error: --activity: this suggestion has no label: give the activity to log it as']);
    const german = await tockAt(() => new Date(now.ms), { ...env, LANG: 'de_DE.UTF-8' }, 'suggest', 'accept', id);
    assert.deepEqual([german.status, german.err.trim()], [1, 'error: --activity: dieser Vorschlag hat keine Bezeichnung: geben Sie die Tätigkeit an, unter der er nachgetragen werden soll']);
  });

  it('rules: add at a position, list, test over the last days, remove; bad input is one line', async () => {
    assert.equal((await tock('rules', 'add', '--app', 'firefox', '--activity', 'Reading')).status, 0);
    const first = await tock('rules', 'add', '--project', 'tock', '--activity', 'Tock dev', '--at', '1', '--json');
    assert.equal(first.status, 0, first.err);
    assert.equal((JSON.parse(first.out) as { id: string }).id, 'r2');
    assert.match((await tock('rules', 'list')).out, / 1\. r2  project=tock  → Tock dev\n 2\. r1  app=firefox  → Reading/);
    const tested = await tock('rules', 'test', 'r1', '--days', '3');
    assert.equal(tested.status, 0, tested.err);
    assert.match(tested.out, /r1 \(app=firefox → Reading\) labels 30m over 3 days\n  2026-11-23  30m/);
    const refused = await tock('rules', 'add', '--activity', 'X');
    assert.equal(refused.status, 1);
    assert.match(refused.err, /^error: match: give at least one of source, app, title/);
    const extra = await tock('rules', 'add', '--app', 'x', '--activity', 'X');
    assert.equal((await tock('rules', 'remove', (JSON.parse((await tock('rules', 'list', '--json')).out) as { id: string }[])[2]!.id)).status, 0, extra.err);
    // The app's rule_not_found, worded by the CLI from its catalog.
    assert.equal((await tock('rules', 'remove', 'r99')).err, 'error: no rule r99 (tock rules list shows them)');
    assert.equal((await tock('rules', 'test', 'r99')).err, 'error: no rule r99 (tock rules list shows them)');
  });

  it('accept --all fills in the labelled stretches; the report grows by exactly their seconds; an accepted id is gone', async () => {
    const day = JSON.parse((await tock('suggest', '--json')).out) as Suggestions;
    // 08:58–09:00 (Code, unlabelled) is shorter than minMinutes.
    assert.deepEqual(day.suggestions.map((s) => [s.start.slice(11, 16), s.end.slice(11, 16), s.activityName, s.ruleID]), [
      ['08:00', '08:30', 'Reading', 'r1'],
      ['08:30', '08:58', 'Tock dev', 'r2'],
    ]);
    const before = app.services.tracker.dailyTotals(DAY, DAY).reduce((n, r) => n + r.seconds, 0);
    const accepted = await tock('suggest', 'accept', '--all');
    assert.equal(accepted.status, 0, accepted.err);
    assert.match(accepted.out, /logged 08:00–08:30 to "Reading" \(new activity\)\nlogged 08:30–08:58 to "Tock dev" \(new activity\)/);
    const after = app.services.tracker.dailyTotals(DAY, DAY).reduce((n, r) => n + r.seconds, 0);
    assert.equal(after - before, day.suggestions.reduce((n, s) => n + s.seconds, 0));
    assert.deepEqual(app.services.suggestions.day(DAY).suggestions, []);
    const again = await tock('suggest', 'accept', day.suggestions[0]!.id);
    assert.equal(again.status, 1);
    assert.match(again.err, /no suggestion .*: it was accepted, dismissed or changed/);
  });

  it('dismiss hides a suggestion for good', async () => {
    now.ms += 20 * MIN;
    report?.({ app: 'Slack', title: 'general' });
    now.ms += 10 * MIN;
    const [open] = app.services.suggestions.day(DAY).suggestions;
    assert.ok(open, 'the open Code span and Slack after the accepted morning');
    const out = await tock('suggest', 'dismiss', open.id);
    assert.equal(out.status, 0, out.err);
    assert.equal(app.services.suggestions.day(DAY).suggestions.some((s) => s.id === open.id), false);
  });
});

describe('tock suggest and tock rules test keep their columns in every language', () => {
  const source = (kind: 'window' | 'calendar', app: string, title: string | null, seconds: number) => ({ source: kind, app, title, project: null, branch: null, seconds });
  it('pads each column to its widest entry: German durations and kinds are longer than English ones', async () => {
    const de = await loadCliMessages('de');
    const day: Suggestions = {
      date: DAY,
      suggestions: [
        { id: `${DAY.replaceAll('-', '')}-aaaaaaaaaaaaaaaa`, start: `${DAY}T09:40:00.000Z`, end: `${DAY}T11:00:00.000Z`, seconds: 4800, activityID: null, activityName: null, sources: [source('window', 'Code', null, 4800)], ruleID: null },
        { id: `${DAY.replaceAll('-', '')}-bbbbbbbbbbbbbbbb`, start: `${DAY}T11:00:00.000Z`, end: `${DAY}T11:30:00.000Z`, seconds: 1800, activityID: 'a1', activityName: 'Meetings', sources: [source('calendar', 'Work', 'Planning', 1800)], ruleID: 'r1' },
      ],
    } as Suggestions;
    const lines = formatSuggestions(de, day).split('\n').slice(1, 3);
    // The label column starts at the same place on both lines.
    assert.equal(lines[0]?.indexOf('(ohne Zuordnung)'), lines[1]?.indexOf('Meetings'), lines.join('\n'));
    const test = {
      ruleID: 'r1',
      match: { source: 'calendar' },
      activity: 'Meetings',
      days: [{ date: DAY, seconds: 8100 }],
      seconds: 8100,
      sources: [source('calendar', 'Work', 'Standup', 6300), source('window', 'Code', null, 1800)],
    } as RuleTest;
    const [standup, code] = formatRuleTest(de, test).split('\n').slice(2);
    assert.equal(standup?.indexOf('Work — Standup'), code?.indexOf('Code'), `${standup}\n${code}`);
    assert.equal(standup?.indexOf('Kalender'), code?.indexOf('Fenster'), `${standup}\n${code}`);
  });

  it('lists what capture saw in the language’s words: German `und`, Japanese `、`', async () => {
    const day = {
      date: DAY,
      suggestions: [
        {
          id: `${DAY.replaceAll('-', '')}-cccccccccccccccc`,
          start: `${DAY}T09:00:00.000Z`,
          end: `${DAY}T10:00:00.000Z`,
          seconds: 3600,
          activityID: null,
          activityName: null,
          sources: [source('window', 'Code', null, 2400), source('window', 'Slack', 'general', 900), source('window', 'firefox', null, 300)],
          ruleID: null,
        },
      ],
    } as Suggestions;
    assert.match(formatSuggestions(await loadCliMessages('en'), day), / · Code, Slack — general, and firefox$/m);
    assert.match(formatSuggestions(await loadCliMessages('de'), day), / · Code, Slack — general und firefox$/m);
    assert.match(formatSuggestions(await loadCliMessages('ja'), day), / · Code、Slack — general、firefox$/m);
  });
});
