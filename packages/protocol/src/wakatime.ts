/**
 * The WakaTime-compatible door of docs/protocol.md "Editors: WakaTime heartbeats":
 * its paths, the editor key's form, its limits and the shapes it answers with. A door of its
 * own beside the signed API: another auth (the editor key in `Authorization`), another body
 * limit, another error body (`{"error": "…"}`, WakaTime's). No I/O.
 */
import type { ProblemReason } from './problem.ts';

/** Where the door lives on the listener's port; `api_url` is this prefix plus `/api/v1`. */
export const WAKATIME_PREFIX = '/wakatime/';
/** The `api_url` path that `~/.wakatime.cfg` names (without host and port). */
export const WAKATIME_API_PATH = '/wakatime/api/v1';

/**
 * The paths, each with its one method: the three of wakatime-cli, and the `api_url` itself (with
 * and without the slash), where the legacy Python `wakatime` posts its bulk.
 */
export const WAKATIME_ROUTES = {
  '/wakatime/api/v1/users/current/heartbeats.bulk': 'POST',
  '/wakatime/api/v1/users/current/heartbeats': 'POST',
  '/wakatime/api/v1/users/current/statusbar/today': 'GET',
  '/wakatime/api/v1': 'POST',
  '/wakatime/api/v1/': 'POST',
} as const;

export type WakatimePath = keyof typeof WAKATIME_ROUTES;

/**
 * The paths that take a bulk (an array of heartbeats, answered `{responses}`): `heartbeats.bulk`,
 * and the `api_url` itself, where the legacy Python `wakatime` (13.1.0 and before) sends the
 * bulk, since it posts to `api_url` as given — same semantics, auth and limits.
 */
export const WAKATIME_BULK_PATHS: ReadonlySet<WakatimePath> = new Set<WakatimePath>([
  '/wakatime/api/v1/users/current/heartbeats.bulk',
  '/wakatime/api/v1',
  '/wakatime/api/v1/',
]);

/** The editor key as Tock makes it: a UUID v4 in lower case (what every wakatime-cli accepts). */
export const EDITOR_KEY_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** The prefix newer WakaTime keys carry; the same key with it is accepted too. */
export const EDITOR_KEY_PREFIX = 'waka_';

/**
 * The `Origin` of a browser extension (`chrome-extension://<id>`, `moz-extension://<uuid>`):
 * the only `Origin` the door admits, since no web page can send it — a page's requests carry
 * the page's own origin (docs/security.md "The WakaTime door"). The WakaTime browser
 * extension posts from there.
 */
export const EXTENSION_ORIGIN_PATTERN = /^(?:chrome-extension|moz-extension):\/\/[A-Za-z0-9-]{1,64}$/;

/** The query parameter that may carry the editor key (the browser extension's `?api_key=`); never logged. */
export const EDITOR_KEY_QUERY = 'api_key';

/** The door's numbers. */
export const WAKATIME_LIMITS = {
  /** Request body, bytes (a bulk of 1 000 heartbeats with long paths fits). */
  maxBodyBytes: 2 * 1024 * 1024,
  /** Heartbeats in one bulk request. */
  maxBulk: 1000,
  /** Code points of `entity`. */
  entityMax: 4096,
  /** How far in the future a heartbeat's time may lie, seconds. */
  futureSeconds: 10 * 60,
  /** Code points of `project` (a path may name it). */
  projectMax: 1024,
  /** Code points of `branch`, `language`, `category`. */
  shortTextMax: 255,
  /** Code points of `X-Machine-Name` kept. */
  machineMax: 255,
} as const;

/** The heartbeat types of docs/protocol.md "Heartbeats"; absent means `file`. */
export const HEARTBEAT_TYPES = ['file', 'app', 'domain', 'url', 'event'] as const;
export type HeartbeatType = (typeof HEARTBEAT_TYPES)[number];

/** The answer to one accepted heartbeat (status 201). */
export interface HeartbeatAccepted {
  data: { id: string; time: number };
}

/** The answer to one refused heartbeat (status 400), and every error body of the door. */
export interface WakatimeError {
  error: string;
  /** Why, by its code and values (core's heartbeat checks), for the editors' status; the door answers `error` alone. */
  because?: ProblemReason;
}

/** What the use case answers for each heartbeat of a request, in the order sent. */
export type HeartbeatOutcome = HeartbeatAccepted | WakatimeError;

/** `GET …/statusbar/today` (docs/protocol.md "Editors: WakaTime heartbeats"): what `wakatime-cli --today` reads. */
export interface StatusBarToday {
  cached_at: string;
  data: {
    grand_total: {
      /** Hours with two decimals, as text: `"2.08"`. */
      decimal: string;
      /** `H:MM`: `"2:05"`. */
      digital: string;
      hours: number;
      minutes: number;
      /** `<activity> · <duration>` while tracking, else `<duration>`. */
      text: string;
      total_seconds: number;
    };
    categories: never[];
    range: { date: string; start: string; end: string; text: 'Today'; timezone: string };
  };
}

/** The JSON schema of {@link StatusBarToday}, for spec/openapi.yaml. */
export const STATUS_BAR_TODAY_SCHEMA = {
  type: 'object',
  required: ['cached_at', 'data'],
  properties: {
    cached_at: { type: 'string', format: 'date-time' },
    data: {
      type: 'object',
      required: ['grand_total', 'categories', 'range'],
      properties: {
        grand_total: {
          type: 'object',
          required: ['decimal', 'digital', 'hours', 'minutes', 'text', 'total_seconds'],
          properties: {
            decimal: { type: 'string', description: 'Hours with two decimals: "2.08".' },
            digital: { type: 'string', description: 'H:MM: "2:05".' },
            hours: { type: 'integer' },
            minutes: { type: 'integer' },
            text: { type: 'string', description: '"<activity> · <duration>" while tracking, else "<duration>"; <duration> as "2 hrs 5 mins", "1 hr 1 min", "45 mins", "0 mins".' },
            total_seconds: { type: 'integer', description: "Tock's todaySeconds." },
          },
        },
        categories: { type: 'array', maxItems: 0, description: 'Always empty: wakatime-cli then prints grand_total.text.' },
        range: {
          type: 'object',
          required: ['date', 'start', 'end', 'text', 'timezone'],
          properties: {
            date: { type: 'string', format: 'date' },
            start: { type: 'string', format: 'date-time' },
            end: { type: 'string', format: 'date-time' },
            text: { const: 'Today' },
            timezone: { type: 'string' },
          },
        },
      },
    },
  },
} as const;

/** The JSON schema of one heartbeat as sent, for spec/openapi.yaml (the use case checks it). */
export const HEARTBEAT_SCHEMA = {
  type: 'object',
  required: ['entity', 'time'],
  properties: {
    entity: { type: 'string', minLength: 1, maxLength: WAKATIME_LIMITS.entityMax, description: 'File path, app name, domain or URL. Of a domain or url heartbeat only the domain is kept, before anything is written (a browser span).' },
    time: { type: ['number', 'string'], description: `Unix seconds, a number or a numeric string as the browser extension sends it ("1732800000.123"; fractions kept to the millisecond); at most ${WAKATIME_LIMITS.futureSeconds / 60} minutes in the future, not older than the capture retention (retentionDays, default 90).` },
    type: { enum: [...HEARTBEAT_TYPES], default: 'file' },
    category: { type: ['string', 'null'], description: `Kept when at most ${WAKATIME_LIMITS.shortTextMax} code points; else dropped.` },
    project: { type: ['string', 'null'], description: `Kept when at most ${WAKATIME_LIMITS.projectMax} code points; else dropped.` },
    branch: { type: ['string', 'null'], description: `Kept when at most ${WAKATIME_LIMITS.shortTextMax} code points; else dropped.` },
    language: { type: ['string', 'null'], description: `Kept when at most ${WAKATIME_LIMITS.shortTextMax} code points; else dropped.` },
    is_write: { type: ['boolean', 'null'] },
    lines: { type: ['integer', 'null'] },
    lineno: { type: ['integer', 'null'] },
    cursorpos: { type: ['integer', 'null'] },
    user_agent: { type: ['string', 'null'] },
    dependencies: { type: ['array', 'null'], description: 'Accepted and not kept.' },
  },
  description:
    'A text field holding a placeholder such as <<LAST_PROJECT>> or <<LAST_BRANCH>> is taken as absent; plugin is read like user_agent. Only a missing or invalid entity or time (or an unknown type, or a domain or url heartbeat naming no http(s) host) refuses a heartbeat; entity must not hold control characters or bidirectional overrides. An optional field that is not valid (too long, of another type, or holding such a character) is dropped — stored as absent, never changed — and the heartbeat accepted. Other fields are ignored.',
} as const;

/**
 * A duration as WakaTime's status bar writes it, floored to the minute like every
 * duration Tock shows: `2 hrs 5 mins`, `1 hr 1 min`, `45 mins`, `0 mins`; whole hours
 * without minutes (`2 hrs`), as WakaTime writes them.
 */
export function wakatimeDurationText(seconds: number): string {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds / 60) : 0;
  const hours = Math.floor(total / 60);
  const minutes = total % 60;
  const h = `${hours} ${hours === 1 ? 'hr' : 'hrs'}`;
  const m = `${minutes} ${minutes === 1 ? 'min' : 'mins'}`;
  if (hours === 0) return m;
  return minutes === 0 ? h : `${h} ${m}`;
}
