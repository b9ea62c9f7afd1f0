/**
 * When the X11 source starts a window helper (docs/desktop.md "Capture"), played with a
 * scripted `xprop` first on the PATH: the test writes what the root helper prints, and ends a
 * window helper as `xprop -spy` ends when its window is destroyed. Each `-spy -id` run prints
 * the window's class as `Run<n>`, n counting the runs on that id, so a second read of the same
 * id is seen. No X server: the order of reports is the test's, not a window manager's.
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { until } from '@tock/test-support';
import type { FocusedWindow } from '../src/capture/focus-source.ts';
import { WindowFollowing, x11FocusSource } from '../src/capture/x11.ts';

const FAKE_XPROP = `#!/bin/sh
case "$*" in
  "-root _NET_SUPPORTING_WM_CHECK") echo '_NET_SUPPORTING_WM_CHECK(WINDOW): window id # 0x100001' ;;
  "-spy -root _NET_ACTIVE_WINDOW") exec tail -n +1 -f "$FAKE_X/root" ;;
  "-spy -id "*)
    n=$(ls "$FAKE_X/spies" | grep -c "^$3-")
    n=$((n + 1))
    echo $$ > "$FAKE_X/spies/$3-$n"
    echo "WM_CLASS(STRING) = \\"w\\", \\"Run$n\\""
    echo "_NET_WM_NAME(UTF8_STRING) = \\"$3\\""
    echo "WM_NAME:  not found."
    exec sleep 600 ;;
  *) exit 1 ;;
esac
`;

/** A scripted xprop and what it saw. */
function fakeXprop(): { env: NodeJS.ProcessEnv; report(id: string): void; runs(id: string): number; destroy(id: string): void; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'tock-x11-helpers-'));
  mkdirSync(join(dir, 'bin'));
  mkdirSync(join(dir, 'spies'));
  writeFileSync(join(dir, 'bin', 'xprop'), FAKE_XPROP, { mode: 0o755 });
  writeFileSync(join(dir, 'root'), '');
  const spies = (id: string): string[] => readdirSync(join(dir, 'spies')).filter((name) => name.startsWith(`${id}-`));
  return {
    env: { ...process.env, DISPLAY: ':99', FAKE_X: dir, PATH: `${join(dir, 'bin')}:${process.env.PATH}` },
    report: (id) => appendFileSync(join(dir, 'root'), `_NET_ACTIVE_WINDOW(WINDOW): window id # ${id}\n`),
    runs: (id) => spies(id).length,
    // The newest helper on `id` ends, as xprop -spy does when its window is destroyed.
    destroy(id) {
      const newest = spies(id).sort((a, b) => Number(a.split('-')[1]) - Number(b.split('-')[1])).at(-1) as string;
      process.kill(Number(readFileSync(join(dir, 'spies', newest), 'utf8')), 'SIGTERM');
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

test('the same id reported again starts no helper while its helper runs, and one after that helper ended', async (t) => {
  const x = fakeXprop();
  t.after(x.cleanup);
  const seen: (FocusedWindow | null)[] = [];
  let starts = 0;
  x.report('0xa00001');
  const follower = await x11FocusSource({ env: x.env, onHelperStart: (args) => void (args.includes('-id') && starts++) }).follow(
    (w) => void seen.push(w),
    (reason) => assert.fail(`lost: ${reason}`),
  );
  t.after(() => follower.stop());
  const reported = (title: string, app: string): Promise<true> =>
    until(`${title} reported as ${app}`, () => seen.some((w) => w?.title === title && w.app === app) || undefined);
  await reported('0xa00001', 'Run1');

  // Reported again while its helper runs: the same window, nothing started. The root's lines
  // are taken in order, so once B is reported the repeat of A was taken.
  x.report('0xa00001');
  x.report('0xb00001');
  await reported('0xb00001', 'Run1');
  assert.equal(x.runs('0xa00001'), 1);
  assert.equal(starts, 2);

  // A focused again (another window before it): read afresh.
  x.report('0xa00001');
  await reported('0xa00001', 'Run2');

  // A destroyed (its helper ends) and a new window given its id focused: read afresh, once,
  // whether the helper's end is heard before the root's report or after it.
  x.destroy('0xa00001');
  x.report('0xa00001');
  await reported('0xa00001', 'Run3');
  x.report('0xb00001');
  await reported('0xb00001', 'Run2');
  assert.equal(x.runs('0xa00001'), 3);
  assert.equal(starts, 5);
});

test('which window the helper follows: a repeat keeps it, an end after a repeat reads the id afresh, once', () => {
  const f = new WindowFollowing();
  assert.equal(f.reported('0xa'), '0xa');
  assert.equal(f.reported('0xa'), undefined, 'reported again while its helper runs: the same window');
  assert.equal(f.ended(), '0xa', 'its helper ended after that report: the report may have named a new window');
  assert.equal(f.ended(), undefined, 'that helper ended too, not reported again: nothing to start');
  assert.equal(f.reported('0xa'), '0xa', 'after its helper ended, the id is read afresh');
  assert.equal(f.ended(), undefined, 'its window destroyed, nothing reported since');
  assert.equal(f.reported(null), null);
  assert.equal(f.reported(null), null, 'no window again: told again (the recorder ignores it)');
  assert.equal(f.ended(), undefined);
  assert.equal(f.reported('0xb'), '0xb');
  assert.equal(f.reported('0xa'), '0xa');
  assert.equal(f.reported('0xb'), '0xb', 'another window between: read afresh');
});
