/**
 * The import campaign's properties (docs/data.md "Import"), shared by the modest
 * run in `npm test` (packages/core/test/import-campaign.test.ts) and the long one
 * (`node bench/campaign-import.ts --runs N`). Files are drawn (in a regular file, a link to one, a FIFO, a link to one, a device) as arbitrary bytes, as near-valid
 * documents of every format with hostile values in every field (huge and fractional numbers,
 * times outside 1970–2199, lone surrogates, NUL, ESC, bidirectional overrides, 201-character
 * names), as deep JSON, and as valid files cut short anywhere. For each file the import must
 * either refuse it with one `ImportProblem` line and leave the store exactly as it was, or store
 * only well-formed data — times in 1970–2199, names that pass the name rules, blocks that end
 * after they start — which reads back and exports. Any other error type is a finding.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isTimeInRange, LIMITS } from '@tock/protocol';
import fc from 'fast-check';
import { exportChunks, importFile, nameError, openExportSource, openStore, type Store } from '../../src/index.ts';

/** The formats a case names (undefined: told from the content, as without --format). */
const FORMATS = [undefined, 'tock', 'toggl', 'timewarrior', 'watson'] as const;
type FormatChoice = (typeof FORMATS)[number];

/** A file to import and the --format given with it. */
export interface ImportCase {
  bytes: Uint8Array;
  format: FormatChoice;
  /** What the path is: the bytes in a regular file, a link to it, or a FIFO, a link to one, a device (docs/data.md "Import"). */
  fileType: FileType;
}

/** The file types a path to import can be; only a regular file (or a link to one) is read. */
const FILE_TYPES = ['regular', 'link', 'fifo', 'link-to-fifo', 'device'] as const;
type FileType = (typeof FILE_TYPES)[number];

/** Text no one types but a hostile file holds. */
const ODD_TEXT = [
  '', ' ', 'Café', '\uD800', '\uDFFF', 'a\uD83Db', '\uDE00x', 'nul\u0000byte', '\u001b[31mred\u001b]0;t\u0007', '\u202Egnp.exe', '\u2066iso\u2069',
  '\u0085next', '\u007f', '\uFEFFbom', 'x'.repeat(201), 'y'.repeat(2001), '=HYPERLINK("http://x","y")', '"quoted, comma"', 'line\nbreak', '\r',
  '__proto__', 'constructor', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', '\u0301', 'ß'.repeat(200),
];
const oddText = fc.oneof(fc.constantFrom(...ODD_TEXT), fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 8 }));

/** Numbers at and past every edge Tock has: 1970, 2199, 2^53, a Date's range, fractions, negatives. */
const EDGE_SECONDS = [0, -1, -0.0004, 0.0004, 1.5, 1e13, 1e16, 1e300, Number.MAX_SAFE_INTEGER / 1000, 7258118399.999, 7258118400, 8.64e12, 1_780_000_000, 1_780_003_600];
const saneSeconds = fc.integer({ min: 1_700_000_000, max: 1_800_000_000 });
const seconds = fc.oneof(saneSeconds, fc.constantFrom(...EDGE_SECONDS), fc.double(), fc.integer());
const anyJson = fc.oneof(fc.constant(null), fc.boolean(), seconds, oddText, fc.constant([]), fc.constant({}));

const pad = (n: number, width = 2): string => String(Math.trunc(Math.abs(n))).padStart(width, '0');
/** A UTC instant as `YYYYMMDDTHHMMSSZ` (Timewarrior) for any year 0–9999. */
function timewStamp(ms: number): string {
  const d = new Date(Number.isFinite(ms) && Math.abs(ms) < 8.64e15 ? ms : 0);
  return `${pad(d.getUTCFullYear() % 10000, 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`;
}
const yearMs = fc.oneof(
  saneSeconds.map((s) => s * 1000),
  fc.constantFrom(-1000, 0, Date.UTC(2199, 11, 31, 23), Date.UTC(2200, 0, 1), Date.UTC(9999, 0, 1), Date.UTC(1969, 11, 31, 23)),
);

const watsonFrame = fc.oneof(
  fc.tuple(saneSeconds, fc.integer({ min: 0, max: 90_000 }), oddText, fc.array(oddText, { maxLength: 3 })).map(([s, d, p, tags]) => [s, s + d, p, 'id', tags, s]),
  fc.tuple(seconds, fc.oneof(seconds, fc.constant(null)), fc.oneof(oddText, anyJson), anyJson, fc.oneof(fc.array(oddText, { maxLength: 3 }), anyJson), anyJson),
  fc.array(anyJson, { maxLength: 7 }),
  anyJson,
);
const timewInterval = fc.oneof(
  fc.record({
    id: fc.nat(),
    start: fc.oneof(yearMs.map(timewStamp), oddText),
    end: fc.oneof(yearMs.map(timewStamp), fc.constant(undefined), anyJson),
    tags: fc.oneof(fc.array(oddText, { maxLength: 3 }), anyJson),
    annotation: fc.oneof(oddText, fc.constant(undefined), anyJson),
  }),
  fc.tuple(yearMs, fc.integer({ min: 0, max: 90_000_000 }), fc.array(oddText, { maxLength: 3 })).map(([s, d, tags]) => ({ id: 1, start: timewStamp(s), end: timewStamp(s + d), tags })),
  anyJson,
);
const iso = fc.oneof(
  yearMs.map((ms) => (Math.abs(ms) < 8.64e15 ? new Date(ms).toISOString() : String(ms))),
  fc.constantFrom('+275760-09-13T00:00:00.000Z', '2026-02-30T00:00:00Z', '2026-11-22T09:15:00+14:00', '2026-11-22T09:15:00.123456789Z', '9999-12-31T23:59:59Z'),
  oddText,
);
const ids = fc.constantFrom('a1', 'a2', 's1', 'e1', '', 'x'.repeat(65), '__proto__');
const tockExport = fc.record({
  format: fc.oneof(fc.constant('tock-export'), anyJson),
  version: fc.oneof(fc.constant(1), anyJson),
  activities: fc.oneof(fc.array(fc.record({ id: fc.oneof(ids, anyJson), name: fc.oneof(oddText, anyJson), createdAt: iso }), { maxLength: 4 }), anyJson),
  sessions: fc.oneof(
    fc.array(
      fc.record({ id: ids, activityID: ids, start: iso, end: fc.oneof(iso, fc.constant(null)), breaks: fc.oneof(fc.array(fc.record({ start: iso, end: fc.oneof(iso, fc.constant(null)) }), { maxLength: 2 }), anyJson) }),
      { maxLength: 3 },
    ),
    anyJson,
  ),
  entries: fc.oneof(fc.array(fc.record({ id: ids, activityID: ids, start: iso, end: iso, note: fc.oneof(oddText, fc.constant(null), anyJson) }), { maxLength: 3 }), anyJson),
});
const togglCell = (v: string): string => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
const togglDate = fc.oneof(yearMs.map((ms) => new Date(Math.abs(ms) < 8.64e15 ? ms : 0).toISOString().slice(0, 10)), fc.constantFrom('0000-01-01', '9999-12-31', '2026-02-30', '2026-13-01'), oddText);
const togglTime = fc.oneof(fc.constantFrom('00:00:00', '09:30', '23:59:59', '24:00:00', '02:30:00', '9:5'), oddText);
const togglCsv = fc
  .array(fc.tuple(oddText, oddText, togglDate, togglTime, togglDate, togglTime), { maxLength: 6 })
  .map((rows) =>
    ['Project,Description,Start date,Start time,End date,End time', ...rows.map((r) => r.map(togglCell).join(','))].join('\r\n'),
  );

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
/** A document as its JSON text (or valid text cut short anywhere). */
const documentText = fc.oneof(
  fc.array(watsonFrame, { maxLength: 6 }).map((v) => JSON.stringify(v)),
  fc.array(timewInterval, { maxLength: 6 }).map((v) => JSON.stringify(v)),
  tockExport.map((v) => JSON.stringify(v)),
  togglCsv,
);
const deepJson = fc.tuple(fc.integer({ min: 1, max: 60_000 }), fc.constantFrom('[', '{"format":"tock-export","version":1,"entries":[', '[[')).map(([depth, head]) => `${head}${'['.repeat(depth)}${']'.repeat(depth)}]`);

/** Every kind of file the campaign imports. */
export const importCases: fc.Arbitrary<ImportCase> = fc.record({
  bytes: fc.oneof(
    { arbitrary: fc.uint8Array({ maxLength: 600 }), weight: 1 },
    { arbitrary: documentText.map(utf8), weight: 4 },
    { arbitrary: fc.tuple(documentText, fc.nat()).map(([text, at]) => utf8(text).subarray(0, at % (text.length + 1))), weight: 2 },
    { arbitrary: fc.tuple(documentText.map(utf8), fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 4 })).map(([b, at, junk]) => { const i = at % (b.length + 1); return Uint8Array.from([...b.subarray(0, i), ...junk, ...b.subarray(i)]); }), weight: 1 },
    { arbitrary: deepJson.map(utf8), weight: 1 },
  ),
  format: fc.constantFrom(...FORMATS),
  fileType: fc.oneof({ arbitrary: fc.constant('regular' as const), weight: 20 }, { arbitrary: fc.constantFrom(...FILE_TYPES), weight: 1 }),
});

/** What the store holds, as one comparable value: every row of every table an import writes. */
function contents(store: Store): string {
  const q = (sql: string) => JSON.stringify(store.db.prepare(sql).all());
  return [
    q('SELECT id, name, created_at, last_used_at FROM activities ORDER BY id'),
    q('SELECT id, activity_id, started_at, ended_at FROM sessions ORDER BY id'),
    q('SELECT id, session_id, started_at, ended_at FROM breaks ORDER BY id'),
    q('SELECT id, activity_id, started_at, ended_at, note FROM entries ORDER BY id'),
  ].join('\n');
}

/** Every row is well-formed: times in 1970–2199, names by the rules, blocks that end after they start. */
function assertWellFormed(store: Store): void {
  for (const a of store.db.prepare('SELECT name, created_at FROM activities').all() as { name: string; created_at: number }[]) {
    assert.equal(nameError(a.name), undefined, `stored name ${JSON.stringify(a.name)}`);
    assert.ok(isTimeInRange(a.created_at), `createdAt ${a.created_at}`);
  }
  for (const table of ['sessions', 'entries', 'breaks']) {
    for (const b of store.db.prepare(`SELECT started_at, ended_at FROM ${table}`).all() as { started_at: number; ended_at: number | null }[]) {
      assert.ok(isTimeInRange(b.started_at), `${table} start ${b.started_at}`);
      assert.ok(b.ended_at === null || (isTimeInRange(b.ended_at) && b.ended_at >= b.started_at), `${table} end ${b.ended_at}`);
    }
  }
  for (const e of store.db.prepare('SELECT note FROM entries WHERE note IS NOT NULL').all() as { note: string }[]) {
    assert.ok([...e.note].length <= LIMITS.noteMax);
  }
  const source = openExportSource(store);
  try {
    for (const format of ['json', 'csv'] as const) {
      const text = [...exportChunks(source.db, { format, timeZone: 'UTC', now: Date.UTC(2026, 10, 22) })].join('');
      if (format === 'json') JSON.parse(text);
    }
  } finally {
    source.close();
  }
}

/** A store and a folder for one property run; `close` removes both. */
export interface CampaignTarget {
  store: Store;
  /** Replaces the store with an empty one. */
  renew?: () => void;
  dir: string;
  /** How many cases ran, refused and imported something. */
  counts: { cases: number; refused: number; imported: number };
  close(): void;
}

/** Cases share a store, as imports do in a person's; a long run starts a new one this often, so each case stays cheap. */
const CASES_PER_STORE = 500;

/** A fresh store in a temp folder. Cases accumulate in it, as imports do in a person's store. */
export function campaignTarget(): CampaignTarget {
  const dir = mkdtempSync(join(tmpdir(), 'tock-import-campaign-'));
  let generation = 0;
  const target: CampaignTarget = {
    store: openStore(join(dir, `tock-${generation}.db`)),
    dir,
    counts: { cases: 0, refused: 0, imported: 0 },
    close: () => {
      target.store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  target.renew = () => {
    target.store.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(dir, `tock-${generation}.db${suffix}`), { force: true });
    target.store = openStore(join(dir, `tock-${++generation}.db`));
  };
  return target;
}

/**
 * The property: importing `c` into `target` either refuses with one `ImportProblem` line and
 * changes nothing, or leaves only well-formed data that reads back and exports.
 */
export async function importKeepsTheStoreWellFormed(target: CampaignTarget, c: ImportCase): Promise<void> {
  if (target.counts.cases > 0 && target.counts.cases % CASES_PER_STORE === 0) target.renew?.();
  const path = placeFile(target.dir, c);
  const before = contents(target.store);
  target.counts.cases++;
  let n = 0;
  try {
    await importFile(target.store, { path, format: c.format, timeZone: 'Europe/Berlin', now: Date.UTC(2026, 10, 22), newId: () => `campaign-${target.counts.cases}-${++n}` });
  } catch (error) {
    assert.ok(error instanceof Error && error.name === 'ImportProblem', `an unexpected error: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
    assert.doesNotMatch(error.message, /\n/, 'one line');
    assert.equal(contents(target.store), before, 'a refused import changes nothing');
    target.counts.refused++;
    return;
  }
  assert.ok(c.fileType === 'regular' || c.fileType === 'link', `a ${c.fileType} was imported`);
  target.counts.imported++;
  assertWellFormed(target.store);
}

/** Puts the case's file in `dir` as its file type says and returns the path to import. */
function placeFile(dir: string, c: ImportCase): string {
  const file = join(dir, 'file');
  const path = join(dir, 'chosen');
  for (const p of [file, path]) rmSync(p, { force: true });
  if (c.fileType === 'fifo' || c.fileType === 'link-to-fifo') execFileSync('mkfifo', [file]);
  else writeFileSync(file, c.bytes);
  if (c.fileType === 'regular' || c.fileType === 'fifo') return file;
  symlinkSync(c.fileType === 'device' ? '/dev/zero' : file, path);
  return path;
}

/** Runs the property `runs` times (seeded when `seed` is given) and returns the counts. */
export async function runImportCampaign(options: { runs: number; seed?: number }): Promise<CampaignTarget['counts']> {
  const target = campaignTarget();
  try {
    await fc.assert(
      fc.asyncProperty(importCases, (c) => importKeepsTheStoreWellFormed(target, c)),
      { numRuns: options.runs, ...(options.seed === undefined ? {} : { seed: options.seed }) },
    );
    return { ...target.counts };
  } finally {
    target.close();
  }
}
