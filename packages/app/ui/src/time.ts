/**
 * Time as the window shows it: in the app's time zone (which decides what "today" is), not
 * necessarily the browser's. Local days are found from the zone's real offsets, so 23- and
 * 25-hour days come out right.
 */

let zone = 'UTC';
let offsetMs = 0;

/** Sets the app's time zone and how far the app's clock is from this browser's. */
export function setAppClock(timeZone: string, appNowIso: string): void {
  zone = timeZone;
  offsetMs = Date.parse(appNowIso) - Date.now();
}

/** Now, by the app's clock. */
export function nowMs(): number {
  return Date.now() + offsetMs;
}

export function timeZone(): string {
  return zone;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function fmt(key: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const k = `${zone}|${key}`;
  let f = formatters.get(k);
  if (!f) {
    f = new Intl.DateTimeFormat(undefined, { ...options, timeZone: zone });
    formatters.set(k, f);
  }
  return f;
}

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wall(ms: number): Wall {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const out: Wall = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const p of f.formatToParts(ms)) if (p.type in out) out[p.type as keyof Wall] = Number(p.value);
  return out;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** `YYYY-MM-DD` of the local day an instant falls on. */
export function dayKey(ms: number): string {
  const w = wall(ms);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

/** The day `n` days after `day`. */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d + n));
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

/** The instant a wall-clock time in the app's zone stands for. */
export function wallToMs(day: string, hour = 0, minute = 0): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const target = Date.UTC(y, m - 1, d, hour, minute);
  const offset = (t: number): number => {
    const w = wall(t);
    return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(t / 1000) * 1000;
  };
  let t = target - offset(target);
  t = target - offset(t);
  return t;
}

/** `[start, end)` of a local day. */
export function daySpan(day: string): { start: number; end: number } {
  return { start: wallToMs(day), end: wallToMs(addDays(day, 1)) };
}

/** The Monday that starts the week of `day`. */
export function weekStart(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const weekday = (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

/** `09:15` */
export function clockTime(ms: number): string {
  return fmt('hm', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms);
}

/** `Sunday, 22 November` */
export function longDay(day: string): string {
  return fmt('long', { weekday: 'long', day: 'numeric', month: 'long' }).format(wallToMs(day, 12));
}

/** `Mon 16` */
export function shortDay(day: string): string {
  return fmt('short', { weekday: 'short', day: 'numeric' }).format(wallToMs(day, 12));
}

/** `16 Nov` */
export function dayMonth(day: string): string {
  return fmt('dm', { day: 'numeric', month: 'short' }).format(wallToMs(day, 12));
}

/** `14:03:22`, for the request list. */
export function clockSeconds(ms: number): string {
  return fmt('hms', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(ms);
}

/** `1:02:03` — a running clock. */
export function stopwatch(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** `3 h 12 min`, `45 min`, `0 min` — a total. */
export function duration(seconds: number): string {
  const minutes = Math.round(Math.max(0, seconds) / 60);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

/** `HH:MM` for an `<input type="time">` from an instant. */
export function timeInputValue(ms: number): string {
  const w = wall(ms);
  return `${pad(w.hour)}:${pad(w.minute)}`;
}
