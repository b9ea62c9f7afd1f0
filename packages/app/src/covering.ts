/**
 * The blocks that cover an instant, for `tock start`'s `warning:` line (docs/cli.md "Client
 * commands", docs/decisions.md "Overlaps counted once"): a session starting now overlaps only
 * blocks that end after now — a session another device runs (sync), an entry that ends up to
 * 60 s ahead, or a block recorded ahead of a clock that was set back. This device's running
 * session is left out: it is the one just started. Read only, on the admin socket.
 */
import type { Store } from '@tock/core';
import { sessionsRunningElsewhere } from '@tock/core/sync';
import type { CoveringBlock } from '@tock/admin';

/** Declared once, in the admin contract (@tock/admin views.ts), which the handlers are typed by. */
export type { CoveringBlock } from '@tock/admin';

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * The blocks covering `at` (ms) with worked time there (a session on a break at `at` does not
 * cover it), oldest first, other than this device's running session.
 */
export function blocksCovering(store: Store, at: number): CoveringBlock[] {
  const found: (CoveringBlock & { start: number })[] = [];
  const sessions = store
    .statement(
      `SELECT s.started_at AS start, s.ended_at AS end, a.name AS name FROM sessions s JOIN activities a ON a.id = s.activity_id
        WHERE s.ended_at > ?1 AND +s.started_at <= ?1
          AND NOT EXISTS (SELECT 1 FROM breaks b WHERE b.session_id = s.id AND b.started_at <= ?1 AND (b.ended_at IS NULL OR b.ended_at > ?1))`,
    )
    .all(at) as { start: number; end: number; name: string }[];
  for (const s of sessions) found.push({ kind: 'session', activityName: s.name, startedAt: iso(s.start), endedAt: iso(s.end), elsewhere: false, start: s.start });
  const entries = store
    .statement(
      `SELECT e.started_at AS start, e.ended_at AS end, a.name AS name FROM entries e JOIN activities a ON a.id = e.activity_id
        WHERE e.ended_at > ?1 AND +e.started_at <= ?1`,
    )
    .all(at) as { start: number; end: number; name: string }[];
  for (const e of entries) found.push({ kind: 'entry', activityName: e.name, startedAt: iso(e.start), endedAt: iso(e.end), elsewhere: false, start: e.start });
  for (const r of sessionsRunningElsewhere(store)) {
    if (r.startedAt > at) continue;
    if (r.breaks.some((b) => b.startedAt <= at && (b.endedAt === null || b.endedAt > at))) continue;
    found.push({ kind: 'session', activityName: r.activity.activityName, startedAt: iso(r.startedAt), endedAt: null, elsewhere: true, start: r.startedAt });
  }
  return found.sort((x, y) => x.start - y.start).map(({ start: _, ...block }) => block);
}
