/**
 * Test support: a wall clock the test sets, for a real `tock app` process and the `tock`
 * commands run against it. libfaketime (Debian `faketime`, installed by scripts/system-deps.sh)
 * is preloaded into each process; it reads the instant from a file on every call
 * (FAKETIME_NO_CACHE), as epoch seconds (FAKETIME_FMT=%s, so the zone never enters), and the
 * clock stands still there until the test moves it: whatever the app stamps between two moves
 * (a focus change, a heartbeat's arrival) gets exactly that instant. Monotonic clocks are left
 * alone (DONT_FAKE_MONOTONIC), so timers and deadlines run on real time.
 */
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The preload library, where Debian and Ubuntu put it. */
export const LIBFAKETIME = ['/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1', '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1', '/usr/lib/faketime/libfaketime.so.1'].find((path) =>
  existsSync(path),
);

/** A clock that stands still at the instant the test set last. */
export interface FrozenClock {
  /** The variables that put a process on this clock. */
  readonly env: NodeJS.ProcessEnv;
  /** The instant every process on this clock reads now, ms since the epoch. */
  now(): number;
  /** Moves the clock to `ms` (whole seconds) for every process on it, at once. */
  set(ms: number): void;
}

/** A frozen clock at `startMs` whose file lives in `dir`. */
export function frozenClock(dir: string, startMs: number): FrozenClock {
  if (LIBFAKETIME === undefined) throw new Error('libfaketime is not installed; scripts/system-deps.sh installs faketime');
  const file = join(dir, 'faketime');
  let current = startMs;
  const set = (ms: number): void => {
    if (ms % 1000 !== 0) throw new Error(`the frozen clock takes whole seconds, not ${ms} ms`);
    current = ms;
    // Renamed into place: a process reading the file mid-write would see no instant at all.
    writeFileSync(`${file}.next`, `${ms / 1000}\n`);
    renameSync(`${file}.next`, file);
  };
  set(startMs);
  return {
    env: { LD_PRELOAD: LIBFAKETIME, FAKETIME_TIMESTAMP_FILE: file, FAKETIME_NO_CACHE: '1', FAKETIME_FMT: '%s', DONT_FAKE_MONOTONIC: '1' },
    now: () => current,
    set,
  };
}
