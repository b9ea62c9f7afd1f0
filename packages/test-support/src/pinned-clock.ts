/**
 * The tests' pinned clock (scripts/pinned-clock.sh): every test command runs under libfaketime
 * at noon of a fixed day in the run's zone, one offset from the real clock for every process.
 * A test that starts a process with an environment of its own passes it `pinnedClockEnv()`,
 * so the process reads the same clock as the test; one that moves a process's clock on its
 * own (a step, a trial that ended) counts from `pinnedOffsetSeconds()`.
 */

/** FAKETIME_SHARED names the run's one libfaketime state (scripts/pinned-clock.sh says why). */
const NAMES = ['LD_PRELOAD', 'FAKETIME', 'FAKETIME_SHARED', 'TOCK_LIBFAKETIME', 'TOCK_TEST_NOW', 'TOCK_TEST_CLOCK_OFFSET'] as const;

/** The variables that put a process on the pinned clock; empty when the run is not pinned. */
export function pinnedClockEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  if (env['TOCK_TEST_CLOCK_OFFSET'] === undefined) return {};
  const out: Record<string, string> = {};
  for (const name of NAMES) {
    const value = env[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** Seconds from the real clock to the pinned one (0 when the run is not pinned). */
export function pinnedOffsetSeconds(env: NodeJS.ProcessEnv = process.env): number {
  return Number(env['TOCK_TEST_CLOCK_OFFSET'] ?? 0);
}

/** libfaketime's offset format for `seconds` from the real clock: "+N" or "-N". */
export function faketimeOffset(seconds: number): string {
  return `${seconds >= 0 ? '+' : ''}${Math.round(seconds)}`;
}
