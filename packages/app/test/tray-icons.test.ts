/**
 * The tray's icons and status line as pure functions (docs/desktop.md "The tray"): the SVGs in
 * the package are the drawing the pixmaps come from, the pixmaps are ARGB32 in network byte
 * order, and durations read floored.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PACKAGE_FILES } from '@tock/admin/package-files';
import { ICON_NAMES, iconArgb, iconRgba, iconSvg } from '@tock/desktop/tray/icons';
import { trayModel, trayStatusLine } from '@tock/desktop/tray/tray-model';

test('the SVGs shipped in the package are the drawing the tray’s pixmaps are made from (node scripts/render-icons.ts svg packages/app/icons)', () => {
  for (const name of ICON_NAMES) {
    assert.equal(readFileSync(join(PACKAGE_FILES.iconTheme, 'hicolor/scalable/apps', `${name}.svg`), 'utf8'), iconSvg(name), name);
  }
});

test('a pixmap is ARGB32 in network byte order: alpha first, then red, green, blue', () => {
  const rgba = iconRgba('tock-tracking', 16);
  const argb = iconArgb('tock-tracking', 16);
  assert.equal(argb.length, 16 * 16 * 4);
  const centre = (8 * 16 + 8) * 4;
  assert.deepEqual([...argb.subarray(centre, centre + 4)], [rgba[centre + 3], rgba[centre], rgba[centre + 1], rgba[centre + 2]]);
  assert.equal(argb[0], 0, 'the corners are transparent');
  assert.equal(argb[(7 * 16 + 1) * 4], 255, 'the disc is opaque');
});

test('the status line: activity, the session’s worked time and today’s, each floored to the minute', () => {
  const status = { isTracking: true, isOnBreak: false, currentActivity: { activityID: 'a', activityName: 'Writing docs' }, todaySeconds: 3 * 3600 + 5 * 60 + 59, since: '2026-11-23T09:00:00.000Z' };
  assert.equal(trayStatusLine({ status, sessionSeconds: 72 * 60 + 59 }), 'Writing docs · 1:12 · today 3:05');
  assert.equal(trayStatusLine({ status: { ...status, isOnBreak: true }, sessionSeconds: 72 * 60 }), 'On a break from Writing docs · 1:12 · today 3:05');
  assert.equal(trayStatusLine({ status: { ...status, isTracking: false, currentActivity: null, since: null }, sessionSeconds: null }), 'Not tracking · today 3:05');
});

test('Active with the tracking or break icon while a session runs, Passive and idle otherwise; the menu is never empty', () => {
  const idle = trayModel({ status: { isTracking: false, isOnBreak: false, currentActivity: null, todaySeconds: 0, since: null }, sessionSeconds: null, recent: [], last: null });
  assert.equal(idle.status, 'Passive');
  assert.equal(idle.icon, 'tock-idle');
  assert.ok(idle.menu.length >= 4);
  const running = { isTracking: true, isOnBreak: false, currentActivity: { activityID: 'a', activityName: 'A' }, todaySeconds: 60, since: '2026-11-23T09:00:00.000Z' };
  assert.equal(trayModel({ status: running, sessionSeconds: 60, recent: [], last: null }).icon, 'tock-tracking');
  const onBreak = trayModel({ status: { ...running, isOnBreak: true }, sessionSeconds: 60, recent: [], last: null });
  assert.deepEqual([onBreak.status, onBreak.icon], ['Active', 'tock-break']);
});
