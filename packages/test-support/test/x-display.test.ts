/**
 * The private X display and session bus the tests and the bench start: Xvfb on the display it
 * picked, at the size asked for; a failure to start is a rejection that says so; a session bus
 * that answers on the address it printed.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { startDBusSession, startTraySession, startXvfb } from '@tock/test-support';

test('Xvfb runs on the display it picked, at the size asked for, until stopped', async () => {
  const xvfb = await startXvfb({ size: '320x240x24' });
  try {
    assert.match(xvfb.display, /^:\d+$/);
    const env = { ...process.env, DISPLAY: xvfb.display };
    assert.equal(execFileSync('xdotool', ['getdisplaygeometry'], { env, encoding: 'utf8' }).trim(), '320 240');
  } finally {
    const exited = once(xvfb.process, 'exit');
    xvfb.stop();
    await exited;
  }
});

test('an Xvfb that cannot start is a rejection', async () => {
  await assert.rejects(startXvfb({ size: '10x10x7' }), /Xvfb exited/);
});

test('a session bus answers on its address; a tray session carries the bus and the display', async () => {
  const bus = await startDBusSession();
  try {
    const names = execFileSync('dbus-send', [`--bus=${bus.address}`, '--print-reply', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.ListNames'], { encoding: 'utf8' });
    assert.match(names, /"org\.freedesktop\.DBus"/);
  } finally {
    bus.stop();
  }
  const session = await startTraySession();
  try {
    assert.deepEqual(session.env, { DBUS_SESSION_BUS_ADDRESS: session.bus.address, DISPLAY: session.xvfb.display, XDG_CURRENT_DESKTOP: 'X-Cinnamon' });
  } finally {
    const exited = [once(session.bus.process, 'exit'), once(session.xvfb.process, 'exit')];
    session.stop();
    await Promise.all(exited);
  }
});
