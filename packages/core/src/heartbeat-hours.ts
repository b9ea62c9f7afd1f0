/**
 * The cap on heartbeats a clock hour keeps (docs/security.md "Version 4: the red team"): a
 * day's timeline and suggestions read every heartbeat of the day into memory, so what one hour
 * may hold is bounded where heartbeats are written — `WAKATIME_LIMITS.hourBeats` heartbeats
 * and `hourEntityChars` code points of entities — never after reading them.
 */
import { type ProblemReason, WAKATIME_LIMITS } from '@tock/protocol';
import { codePointLength } from './names.ts';
import type { Store } from './store.ts';

/** What an hour holds already: read along the (time_ms, entity, is_write) index alone. */
const HOUR_USE = 'SELECT count(*) AS beats, coalesce(sum(length(entity)), 0) AS chars FROM heartbeats WHERE time_ms >= ? AND time_ms < ?';
const HOUR_MS = 3_600_000;

/**
 * The room left in each clock hour (UTC) a request's heartbeats fall in, under
 * `WAKATIME_LIMITS.hourBeats` and `hourEntityChars`: read from the store the first time an
 * hour is met, then counted on as heartbeats are taken. A repeat is counted too (it costs
 * nothing stored, and at most one request's worth).
 */
export class HourRoom {
  private readonly used = new Map<number, { beats: number; chars: number }>();
  private readonly store: Store;
  constructor(store: Store) {
    this.store = store;
  }
  /** Whether a heartbeat at `timeMs` with `entity` fits in its hour; when it does, it is counted. */
  take(timeMs: number, entity: string): boolean {
    const hour = Math.floor(timeMs / HOUR_MS);
    let used = this.used.get(hour);
    if (used === undefined) {
      const row = this.store.statement(HOUR_USE).get(hour * HOUR_MS, (hour + 1) * HOUR_MS) as { beats: number; chars: number };
      used = { beats: Number(row.beats), chars: Number(row.chars) };
      this.used.set(hour, used);
    }
    const chars = codePointLength(entity);
    if (used.beats + 1 > WAKATIME_LIMITS.hourBeats || used.chars + chars > WAKATIME_LIMITS.hourEntityChars) return false;
    used.beats++;
    used.chars += chars;
    return true;
  }
}

/** Why a heartbeat whose hour is full is not kept, in English and by its code. */
export const HOUR_FULL_MESSAGE = `its hour already holds ${WAKATIME_LIMITS.hourBeats} heartbeats or ${WAKATIME_LIMITS.hourEntityChars} characters of entities, the most Tock keeps for one hour; it is not kept`;
export const HOUR_FULL_REASON: ProblemReason = { code: 'heartbeat_hour_full', values: { beats: WAKATIME_LIMITS.hourBeats, chars: WAKATIME_LIMITS.hourEntityChars } };
