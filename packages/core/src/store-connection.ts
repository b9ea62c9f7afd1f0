/**
 * How Tock uses its one SQLite connection: prepared statements kept per connection, nested
 * transactions as savepoints, the group commit that shares one fsync among the writes of two
 * turns of the event loop (docs/decisions.md "Store"), and the write generation that lets
 * derived values be kept while nothing changed. store.ts opens the file and hands the
 * connection here.
 */

import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { asInvoicedProblem } from './invoiced.ts';

/** The transaction rules and statement cache of an open store (the part of `Store` made here). */
export interface StoreConnection {
  /**
   * Runs `fn` in one transaction (`BEGIN IMMEDIATE`): all its writes land or none do.
   * A nested call runs in a savepoint of the outer transaction: if it throws, its own writes
   * are undone and the outer transaction goes on.
   */
  transaction<T>(fn: () => T): T;
  /**
   * Group commit: runs `fn` at once, in a transaction that the writes arriving in the same
   * turn of the event loop and the next share, and resolves once that transaction is committed
   * (on disk).
   * One fsync then acknowledges every write of the group. Until it resolves nobody else sees
   * the writes: any other use of the store first commits the open group. When `fn` throws, its
   * own writes are undone and the promise rejects at once; when the commit fails, every write
   * of the group is undone and every promise rejects with that error. The group's first write
   * runs in the transaction itself (it holds nothing else yet: undoing it is rolling it back),
   * each later one in a savepoint of it.
   */
  durably<T>(fn: () => T): Promise<T>;
  /** A prepared statement for `sql`, prepared once per connection. */
  statement(sql: string): StatementSync;
  /**
   * Goes up whenever this connection may have changed data: a statement other than a SELECT
   * was taken for use, or a transaction began or ended (a rollback changes data too). Values
   * derived from the data can be kept while it stays the same. Writes made on `db` directly
   * are not counted.
   */
  readonly generation: number;
  /**
   * Calls `listener` each time {@link generation} goes up, until the returned function is
   * called: a way to hear of writes without looking on a timer (the tray, docs/desktop.md "The
   * tray"). It is called at once, possibly inside a transaction or before the statement just
   * taken has run: it must not use the store, only note that something changed and look later.
   * The writes of a group commit ({@link durably}) are told once, when it has committed: a
   * listener may look as soon as the task that told it ends (a microtask) without ending the
   * next group early.
   */
  onWrite(listener: () => void): () => void;
  /** Closes the connection. Safe to call twice. */
  close(): void;
}

/**
 * Whether a statement only reads: a SELECT, or a WITH … SELECT (a query over common table
 * expressions) that names no writing keyword. Anything else counts as a write for
 * {@link StoreConnection.generation}; a word like UPDATE inside a read's string literal only
 * costs a recomputation.
 */
function isRead(sql: string): boolean {
  return /^\s*(SELECT|WITH)\b/i.test(sql) && !/\b(INSERT|UPDATE|DELETE|REPLACE|UPSERT)\b/i.test(sql);
}

/** The writes waiting for one commit: how to tell each of them how it ended. */
interface Group {
  settle: ((error: unknown) => void)[];
}

/**
 * Wraps an open, migrated connection in Tock's transaction rules. `parts` adds the rest of the
 * store's object (made from the connection's `statement`), so the store is one object and
 * `generation`, read on every status, is its own getter.
 */
export function storeConnection<P extends object>(db: DatabaseSync, parts: (statement: (sql: string) => StatementSync) => P): StoreConnection & P {
  const statements = new Map<string, StatementSync>();
  let depth = 0;
  let closed = false;
  /** The open group commit, if any: its transaction is open at depth 1. */
  let group: Group | null = null;
  /** True while a write of the open group runs: only then may the group's transaction be used. */
  let inGroup = false;
  /** The error with which SQLite rolled back the open transaction under a nested call, if it did. */
  let lostBy: unknown = null;
  /** See {@link StoreConnection.generation}; `writing` holds the statements that count. */
  let generation = 0;
  const writing = new WeakSet<StatementSync>();
  /**
   * `SAVEPOINT` and `RELEASE` of each depth, prepared once: `db.exec` would parse them again
   * for every write of a group (two of each for a heartbeat bulk).
   */
  const savepoints: { open: StatementSync; release: StatementSync }[] = [];
  const savepointAt = (at: number): { open: StatementSync; release: StatementSync } =>
    (savepoints[at] ??= { open: db.prepare(`SAVEPOINT tock_nested_${at}`), release: db.prepare(`RELEASE tock_nested_${at}`) });
  /** See {@link StoreConnection.onWrite}. */
  const writeListeners = new Set<() => void>();
  const wrote = (): void => {
    generation++;
    // A group's writes are heard once, when it has committed (commitGroup's own `wrote`): a
    // listener that looks then sees them saved, and its look does not end the group early.
    if (group !== null) return;
    if (writeListeners.size > 0) for (const listener of writeListeners) listener();
  };

  /** Commits the open group (one fsync) and settles its writes. */
  const commitGroup = (): void => {
    const g = group;
    if (g === null) return;
    group = null;
    let failure: unknown = null;
    try {
      if (db.isTransaction) db.exec('COMMIT');
      else failure = lost();
    } catch (error) {
      failure = error;
      try {
        if (db.isTransaction) db.exec('ROLLBACK');
      } catch {
        // The connection is gone or broken: the writes are not saved either way, as reported.
      }
    } finally {
      depth = 0;
      wrote();
    }
    for (const settle of g.settle) settle(failure);
  };

  /** Anything but a write of the open group first commits it, so no one sees unsaved writes. */
  const outsideGroup = (): void => {
    if (group !== null && !inGroup) commitGroup();
  };

  const statement = (sql: string): StatementSync => {
    outsideGroup();
    let s = statements.get(sql);
    if (!s) {
      s = db.prepare(sql);
      statements.set(sql, s);
      if (!isRead(sql)) writing.add(s);
    }
    if (writing.has(s)) wrote();
    return s;
  };

  /**
   * Some failures (a full disk, an I/O error) make SQLite roll back the whole transaction, not
   * just the statement. A nested call that fails so throws as usual; if its caller catches the
   * error and goes on, the work it thinks it did is gone: it must not be committed or answered
   * as done. This is the error that took the transaction down, to throw at that caller.
   */
  const lost = (): unknown => lostBy ?? new Error('SQLite rolled the transaction back; nothing of it was saved');

  const transaction = <T>(fn: () => T): T => {
    outsideGroup();
    wrote();
    if (depth > 0) {
      // A savepoint: a nested call that fails undoes its own writes and leaves the outer
      // transaction to decide about the rest (the listener commits a use case together with
      // its idempotency record, and answers a failed use case without its half-done writes).
      const savepoint = savepointAt(depth);
      const at = depth;
      savepoint.open.run();
      depth++;
      try {
        const result = fn();
        if (!db.isTransaction) throw lost();
        savepoint.release.run();
        return result;
      } catch (error) {
        if (db.isTransaction) db.exec(`ROLLBACK TO tock_nested_${at}; RELEASE tock_nested_${at}`);
        else lostBy ??= error;
        // A write the invoiced-block guard refused (invoiced.ts): the one problem, not SQLite's text.
        throw asInvoicedProblem(error);
      } finally {
        depth--;
        wrote();
      }
    }
    db.exec('BEGIN IMMEDIATE');
    depth = 1;
    lostBy = null;
    try {
      const result = fn();
      if (!db.isTransaction) throw lost();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw asInvoicedProblem(error);
    } finally {
      depth = 0;
      wrote();
    }
  };

  /**
   * The first write of a group, in the group's transaction itself: nothing else is in it yet,
   * so when `fn` throws, rolling the transaction back undoes its writes and only its writes
   * (then {@link durably} ends the group, and the writes after it in the turn open a new one).
   * Spares the savepoint, its statement journal and two statements that every later write of
   * the group pays.
   */
  const firstOfGroup = <T>(fn: () => T): T => {
    wrote();
    try {
      const result = fn();
      if (!db.isTransaction) throw lost();
      return result;
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      depth = 0;
      throw asInvoicedProblem(error);
    } finally {
      wrote();
    }
  };

  const durably = <T>(fn: () => T): Promise<T> => {
    let first = false;
    if (group === null) {
      if (depth > 0) throw new Error('durably() was called inside transaction(): its writes would be saved by that transaction');
      db.exec('BEGIN IMMEDIATE');
      depth = 1;
      lostBy = null;
      const opened: Group = { settle: [] };
      group = opened;
      first = true;
      // One more turn for company: the requests read by the next turn's poll (which does not
      // block while this waits) join this commit instead of waiting for one of their own.
      setImmediate(() => setImmediate(() => group === opened && commitGroup()));
    }
    const g = group;
    const nested = inGroup;
    inGroup = true;
    const before = g.settle.length;
    let result: T;
    try {
      result = first ? firstOfGroup(fn) : transaction(fn);
    } catch (error) {
      // What `fn` wrote durably inside itself was undone with it: those writes fail with it too.
      for (const settle of g.settle.splice(before)) settle(error);
      // Some failures (a full disk, I/O errors) make SQLite roll back the whole transaction:
      // then the group's earlier writes are gone too, and they must hear it now. (A failed
      // first write rolled it back itself: the group ends with nobody to tell.)
      if (!db.isTransaction) commitGroup();
      return Promise.reject(error);
    } finally {
      inGroup = nested;
    }
    return new Promise<T>((resolve, reject) => {
      g.settle.push((failure) => (failure === null ? resolve(result) : reject(failure)));
    });
  };

  return {
    ...parts(statement),
    transaction,
    durably,
    statement,
    get generation(): number {
      return generation;
    },
    onWrite(listener) {
      writeListeners.add(listener);
      return () => writeListeners.delete(listener);
    },
    close(): void {
      if (closed) return;
      commitGroup();
      closed = true;
      statements.clear();
      db.close();
    },
  };
}
