/**
 * Whether the list of every activity, as a screen shows it (`listActivities`), may have
 * changed: the window reads that list again only then, not after every write (docs/ui.md "API
 * of the window", `activities`). At 20 000 activities a read is 40–60 ms of the app's CPU, and
 * most writes — a start, a stop, an entry, a heartbeat — leave every row as it was shown.
 *
 * Temporary SQLite triggers on this connection (the app's one; the CLI never opens the store)
 * call a function of this module inside the write that changed a row, whichever use case made
 * it — a window route, the admin socket, the listener, another device's operations applied, an
 * import. A row added or removed, or a shown column changed (name, colour, archived, created),
 * is a change. Its `last_used_at` (recency) moves on every start and entry, but the list shows
 * it only as a day ("used today", "last used 3 Nov") and orders nothing by it: a move within
 * the same local day is no change, a move to another day is. The person's day (the zone, the
 * setting `dayStartsAt`) is taken with each {@link ActivityListChanges.take}; a new one is a
 * change too, since a recency left unread might then fall on another day.
 *
 * An activity's ledger fields (client, rate, billable, budget: its billing panel on the same
 * screen) are told apart ({@link ActivityListChanges.takeLedger}): a change of them alone
 * leaves the list as it was, and needs the window's `ledger` reload instead. So is the rest of
 * what the window's ledger views read: a client added, removed or changed (its rate, currency,
 * name, tax details), an invoice made or voided, and a ledger setting (`LEDGER_SETTING_KEYS`:
 * rounding, targets, business, `dayStartsAt` …) set or cleared — the CLI's `tock clients` and
 * `tock settings set` and another device's clients applied alike. Settings the ledger does not
 * read (the desktop's, sync's clock) are no change. These tables are written only by those rare
 * writes: no trigger is put on sessions, entries or heartbeats.
 *
 * Once something changed, nothing more is looked at until it is taken. A change rolled back
 * still counts: one read too many, never one too few. Temporary triggers live in the
 * connection's `temp` schema, never in `tock.db`.
 */
import type { Store } from './store.ts';
import { localDayAt } from './day.ts';
import { readDayStartsAt } from './ledger-settings.ts';
import { LEDGER_SETTING_KEYS } from './shapes/ledger.ts';
import { systemTimeZone } from './zone.ts';

/** The columns of `activities` the list shows, besides `last_used_at`. */
const SHOWN = ['id', 'name', 'created_at', 'color', 'archived'] as const;
/** An activity's ledger fields (not in the list). */
const LEDGER = ['client_id', 'rate', 'billable', 'budget_hours'] as const;
/** Tables the ledger's views read whole, each row a change whatever its columns: written only by the ledger's rare writes. */
const LEDGER_TABLES = ['clients', 'invoices'] as const;
/** The ledger settings' keys as an SQL list (constants: no value of a person's reaches it). */
const LEDGER_KEYS_SQL = LEDGER_SETTING_KEYS.map((key) => `'${key}'`).join(', ');

/** Tells whether the activity list changed; see the module comment. */
export interface ActivityListChanges {
  /**
   * True when the list may have changed since the last call (and on the first): a row added,
   * removed or shown differently, or the person's day changed. Forgets it.
   */
  take(): boolean;
  /**
   * True when the ledger changed since the last call: an activity's ledger fields (client, rate,
   * billable, budget), a client, an invoice or a ledger setting. Forgets it.
   */
  takeLedger(): boolean;
  /** Drops the triggers; {@link take} is true from then on. */
  stop(): void;
}

/** How {@link watchActivityList} learns the person's day. */
export interface ActivityListOptions {
  /** The IANA zone that decides "today" (default: the process's zone, read at each take). */
  timeZone?: () => string;
}

/** Each watcher's triggers and function have names of their own: two on one connection do not meet. */
let watchers = 0;

/** Starts watching `store`'s activities on its connection; see the module comment. */
export function watchActivityList(store: Pick<Store, 'db' | 'settings'>, options: ActivityListOptions = {}): ActivityListChanges {
  const timeZone = options.timeZone ?? systemTimeZone;
  const name = `tock_activity_list_${++watchers}`;
  let changed = true;
  let ledgerChanged = false;
  let stopped = false;
  // The person's day as of the last take. Its zone is read when first needed, not by a take that
  // says "changed" anyway: the app's first take runs before its first answer, and the system's
  // zone costs V8 its list of ICU's locales there (13–15 ms of a cold start, ~6 MB). A zone
  // changes with `TZ`, which a running app does not see change.
  let day: { timeZone: string | undefined; dayStartsAt: number } = { timeZone: undefined, dayStartsAt: 0 };
  const dayOf = (ms: number): number => {
    day.timeZone ??= timeZone();
    return localDayAt(ms, day.timeZone, day.dayStartsAt).start;
  };

  store.db.function(name, { deterministic: false, directOnly: false }, (shown, ledger, usedBefore, usedNow) => {
    if (ledger !== 0) ledgerChanged = true;
    if (changed) return null;
    if (shown !== 0 || typeof usedBefore !== 'number' || typeof usedNow !== 'number') changed = true;
    else if (usedBefore !== usedNow) changed = dayOf(usedBefore) !== dayOf(usedNow);
    return null;
  });
  const differs = (columns: readonly string[]): string => columns.map((column) => `old.${column} IS NOT new.${column}`).join(' OR ');
  const shownDiffers = differs(SHOWN);
  const ledgerDiffers = differs(LEDGER);
  store.db.function(`${name}_ledger`, { deterministic: false, directOnly: false }, () => {
    ledgerChanged = true;
    return null;
  });
  const triggers = [`${name}_insert`, `${name}_delete`, `${name}_update`];
  let sql = `CREATE TEMP TRIGGER ${name}_insert AFTER INSERT ON main.activities BEGIN SELECT ${name}(1, 0, NULL, NULL); END;
     CREATE TEMP TRIGGER ${name}_delete AFTER DELETE ON main.activities BEGIN SELECT ${name}(1, 0, NULL, NULL); END;
     CREATE TEMP TRIGGER ${name}_update AFTER UPDATE ON main.activities
       WHEN ${shownDiffers} OR ${ledgerDiffers} OR old.last_used_at IS NOT new.last_used_at
       BEGIN SELECT ${name}(${shownDiffers}, ${ledgerDiffers}, old.last_used_at, new.last_used_at); END;`;
  const ledgerTrigger = (table: string, event: 'INSERT' | 'DELETE' | 'UPDATE', when: string): void => {
    const trigger = `${name}_${table}_${event.toLowerCase()}`;
    triggers.push(trigger);
    sql += `\n     CREATE TEMP TRIGGER ${trigger} AFTER ${event} ON main.${table} WHEN ${when} BEGIN SELECT ${name}_ledger(); END;`;
  };
  for (const table of LEDGER_TABLES) {
    // Every column, as the table has them now (a later migration's too): an upsert that rewrites a row as it was is no change.
    const columns = (store.db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[]).map((column) => column.name);
    ledgerTrigger(table, 'INSERT', 'true');
    ledgerTrigger(table, 'DELETE', 'true');
    ledgerTrigger(table, 'UPDATE', differs(columns));
  }
  ledgerTrigger('settings', 'INSERT', `new.key IN (${LEDGER_KEYS_SQL})`);
  ledgerTrigger('settings', 'DELETE', `old.key IN (${LEDGER_KEYS_SQL})`);
  ledgerTrigger('settings', 'UPDATE', `(old.key IN (${LEDGER_KEYS_SQL}) OR new.key IN (${LEDGER_KEYS_SQL})) AND (old.key IS NOT new.key OR old.value IS NOT new.value)`);
  store.db.exec(sql);

  return {
    take() {
      if (stopped) return true;
      const dayStartsAt = readDayStartsAt(store.settings);
      if (changed) {
        day = { timeZone: undefined, dayStartsAt };
        changed = false;
        return true;
      }
      const now = { timeZone: timeZone(), dayStartsAt };
      const taken = (day.timeZone !== undefined && now.timeZone !== day.timeZone) || now.dayStartsAt !== day.dayStartsAt;
      day = now;
      return taken;
    },
    takeLedger() {
      const taken = ledgerChanged || stopped;
      ledgerChanged = false;
      return taken;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      // A store closed first took its temporary triggers with it.
      if (!store.db.isOpen) return;
      store.db.exec(triggers.map((trigger) => `DROP TRIGGER IF EXISTS temp.${trigger};`).join(' '));
    },
  };
}
