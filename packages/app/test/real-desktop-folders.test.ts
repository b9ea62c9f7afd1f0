/**
 * A private desktop session (support/real-desktop.ts, the KWin and GNOME Shell tests' and the
 * desktop capture figure's) leaves no folder behind: its stop() waits for the processes on it,
 * which may still write there while they exit (a bus daemon, dconf), before removing it.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { until } from '@tock/test-support';
import { installed, PrivateSession } from './support/real-desktop.ts';

const skip = installed('dbus-daemon') ? false : 'needs dbus-daemon (scripts/system-deps.sh)';

test('stop() removes the session folder after its processes exited, even one that writes there as it exits', { skip }, async () => {
  const session = new PrivateSession();
  await session.start();
  // As dconf does: on SIGTERM it makes its folder again and writes a file there, then exits.
  const ready = join(session.home, 'ready');
  const child = session.spawn(['sh', '-c', `trap 'sleep 0.2; mkdir -p "$HOME/.config/dconf" && echo bye > "$HOME/.config/dconf/user"; exit 0' TERM; touch "${ready}"; while :; do sleep 0.05; done`]);
  await until('the child to run', () => existsSync(ready), { watch: child });
  await session.stop();
  assert.equal(existsSync(session.root), false, `${session.root} is gone`);
  assert.equal(child.exitCode, 0, 'the child ran its exit handler');
});
