import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Status } from '@tock/client';
import { loadCliMessages } from '../src/i18n/index.ts';
import { checkTemplate, DEFAULT_TEMPLATE, renderStatusLine, waybarLine, type ReceivedStatus } from '../src/status-line.ts';

const at = (iso: string) => new Date(iso);
const tracking: Status = {
  isTracking: true,
  isOnBreak: false,
  currentActivity: { activityID: '0b7c0d1e-0000-4000-8000-000000000001', activityName: 'Writing docs' },
  since: '2026-11-23T09:00:00.000Z',
  todaySeconds: 3 * 3600 + 5 * 60,
};
const received = (status: Status, iso = '2026-11-23T10:00:00.000Z'): ReceivedStatus => ({ status, receivedAt: at(iso) });

describe('status bar lines', () => {
  it('fills every placeholder while tracking and counts on from when the status arrived', () => {
    const line = renderStatusLine('{state}|{activity}|{elapsed}|{today}|{todaySeconds}', received(tracking), at('2026-11-23T10:30:59.000Z'));
    assert.equal(line, 'tracking|Writing docs|1:30|3:35|12959');
  });

  it('does not count a break or an idle status on, and says which it is', () => {
    const onBreak = { ...tracking, isOnBreak: true };
    assert.equal(renderStatusLine('{state} {today}', received(onBreak), at('2026-11-23T11:00:00.000Z')), 'break 3:05');
    const idle: Status = { ...tracking, isTracking: false, currentActivity: null, since: null };
    assert.equal(renderStatusLine('{state} {activity} {elapsed} {today}', received(idle), at('2026-11-23T11:00:00.000Z')), 'idle 3:05');
  });

  it('marks a break in the default template, and {break} is empty otherwise', () => {
    const onBreak = { ...tracking, isOnBreak: true };
    assert.equal(renderStatusLine(DEFAULT_TEMPLATE, received(onBreak), at('2026-11-23T11:00:00.000Z')), 'Writing docs (break) 2:00 · 3:05');
    assert.equal(renderStatusLine(DEFAULT_TEMPLATE, received(tracking), at('2026-11-23T10:00:00.000Z')), 'Writing docs 1:00 · 3:05');
    assert.equal(JSON.parse(waybarLine(DEFAULT_TEMPLATE, received(onBreak), at('2026-11-23T11:00:00.000Z'))).class, 'break');
  });

  it('waybar in German: text and tooltip in the language, class the machine word', async () => {
    const de = await loadCliMessages('de');
    const onBreak = { ...tracking, isOnBreak: true };
    const line = JSON.parse(waybarLine(DEFAULT_TEMPLATE, received(onBreak), at('2026-11-23T11:00:00.000Z'), undefined, de));
    assert.deepEqual(line, { text: 'Writing docs (Pause) 2:00 · 3:05', tooltip: 'Pause von Writing docs seit 2:00 — heute 3:05', class: 'break' });
    const offline = JSON.parse(waybarLine(DEFAULT_TEMPLATE, null, at('2026-11-23T11:00:00.000Z'), undefined, de));
    assert.equal(offline.tooltip, 'Tock ist nicht erreichbar: der Listener antwortet nicht');
    assert.equal(offline.class, 'offline');
  });

  it('leaves no separator dangling when nothing runs: the default line is `3:05`, not `· 3:05` (issue 37)', () => {
    const idle: Status = { ...tracking, isTracking: false, currentActivity: null, since: null };
    const eleven = at('2026-11-23T11:00:00.000Z');
    assert.equal(renderStatusLine(DEFAULT_TEMPLATE, received(idle), eleven), '3:05');
    assert.equal(renderStatusLine('{activity} | {elapsed} | {today}', received(idle), eleven), '3:05');
    assert.equal(renderStatusLine('{today} — {activity}', received(idle), eleven), '3:05');
    assert.equal(renderStatusLine('{activity} · {break} · {today}', received(tracking), at('2026-11-23T10:00:00.000Z')), 'Writing docs · 3:05');
    // A separator written against a placeholder is the template's own field list, kept for scripts.
    assert.equal(renderStatusLine('{state}|{activity}', received(idle), eleven), 'idle|');
    assert.equal(JSON.parse(waybarLine(DEFAULT_TEMPLATE, received(idle), eleven)).text, '3:05');
  });

  it('says offline when there is no status, and never prints a negative time after a clock step back', () => {
    assert.equal(renderStatusLine('{activity} {today}', null, at('2026-11-23T10:00:00.000Z')), 'offline');
    // The default template with nothing to show is not a lone "·".
    assert.equal(renderStatusLine(DEFAULT_TEMPLATE, null, at('2026-11-23T10:00:00.000Z')), 'offline');
    assert.equal(renderStatusLine('{activity} | {today} / {elapsed}', null, at('2026-11-23T10:00:00.000Z')), 'offline');
    assert.equal(renderStatusLine('{elapsed} {today}', received(tracking), at('2026-11-23T08:00:00.000Z')), '0:00 3:05');
  });

  it("writes waybar's one-line JSON with the state as its class", () => {
    const json = JSON.parse(waybarLine('{activity} {today}', received(tracking), at('2026-11-23T10:00:00.000Z')));
    assert.deepEqual(json, { text: 'Writing docs 3:05', tooltip: 'Tracking Writing docs for 1:00 — 3:05 today', class: 'tracking' });
    const offline = JSON.parse(waybarLine('{activity}', null, at('2026-11-23T10:00:00.000Z'), 'nothing is listening on 127.0.0.1:39847'));
    assert.equal(offline.class, 'offline');
    assert.match(offline.tooltip, /nothing is listening/);
  });

  it('refuses an unknown placeholder with the list of known ones', () => {
    assert.equal(checkTemplate('{activity} {today}'), null);
    assert.deepEqual(checkTemplate('{activty}'), { placeholder: '{activty}', allowed: '{state}, {activity}, {break}, {elapsed}, {today}, or {todaySeconds}' });
  });
});
