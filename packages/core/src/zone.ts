/**
 * The process's time zone: what "today" is for the app when no zone is configured. Apart
 * from day.ts because it reads the environment, which the window's bundle has not.
 */

/** The zone last resolved, and the `TZ` value it was resolved under. */
let systemZone: { tz: string | undefined; zone: string } | undefined;

/**
 * The time zone of the process: `TZ` if set, else the system's. Resolving it builds an
 * `Intl.DateTimeFormat` (about 0.1–0.2 ms, as much as the rest of `GET /status`), so the
 * answer is kept per value of `TZ`: Node resets the default zone only when `TZ` changes, so
 * nothing else can change the answer.
 */
export function systemTimeZone(): string {
  const tz = process.env.TZ;
  if (systemZone === undefined || systemZone.tz !== tz) {
    systemZone = { tz, zone: new Intl.DateTimeFormat().resolvedOptions().timeZone };
  }
  return systemZone.zone;
}
