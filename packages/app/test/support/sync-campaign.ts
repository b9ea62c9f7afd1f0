/**
 * The property-based campaign over the sync reader (issue 23): a folder holding whatever an
 * attacker writes — arbitrary bytes, truncated lines, huge numbers, odd Unicode, FIFOs, links,
 * folders where files belong — next to operations signed with the folder key but arbitrary in
 * every field. Whatever the folder holds, a scan ends, the event loop keeps turning while it
 * runs, nothing without the key's mac changes the store, and every row the store shows passed
 * the API's rules. Run briefly by packages/app/test/sync-campaign.test.ts and long by
 * bench/campaign-sync.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { isTimeInRange } from '@tock/protocol';
import { createTracker, openStore } from '@tock/core';
import { nameError } from '@tock/core/testing';
import { ENTRY_MAX_MS, formatSyncKey, signLine } from '@tock/core/sync';
import { exported } from '@tock/core/testing';
import { SyncService } from '@tock/sync';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const KEY = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 11) & 0xff);
const WRONG_KEY = Uint8Array.from({ length: 32 }, (_, i) => (i * 53 + 5) & 0xff);
const DEVICES = ['c0c0c0c0-0000-4000-8000-000000000001', 'c0c0c0c0-0000-4000-8000-000000000002'];
const IDS = ['c0c0c0c0-0000-4000-8000-0000000000a1', 'c0c0c0c0-0000-4000-8000-0000000000a2', 'c0c0c0c0-0000-4000-8000-0000000000e1'];

const oddText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('\u001b[2J', '\u202e', '\u2066x', '\u0000', '\uD800', 'Café', 'Cafe\u0301', ' ', '', 'x'.repeat(2100), '𝒯ock'),
);
const oddNumber = fc.oneof(
  fc.integer(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, 2 ** 53, -1, 0, 1e21, 999_999_999_999_999, NOW, NOW + 11 * 60_000, NOW - 3_600_000, Date.UTC(2200, 0, 1), 1.5),
  fc.double(),
);
const oddValue = fc.oneof(oddText, oddNumber, fc.constant(null), fc.boolean(), fc.constantFrom(...IDS, ...DEVICES));
const hlcText = fc.oneof(
  fc.tuple(oddNumber, fc.oneof(fc.nat(), fc.constant(999_999_999)), fc.constantFrom(...DEVICES)).map(([ms, counter, device]) => `${ms}-${counter}-${device}`),
  oddText,
);
/** An operation's JSON: well formed (names and times of every kind), of the right shape with arbitrary values, or arbitrary JSON. */
const opText = fc.oneof(
  fc.tuple(fc.constantFrom(...DEVICES), oddText).map(([device, name]) =>
    JSON.stringify({ v: 1, hlc: `${NOW - 60_000}-0-${device}`, op: 'activity.create', id: IDS[0], set: { name, createdAt: NOW - 60_000 } }),
  ),
  fc.tuple(fc.constantFrom(...DEVICES), oddNumber, oddNumber).map(([device, startedAt, endedAt]) =>
    JSON.stringify({ v: 1, hlc: `${NOW - 30_000}-0-${device}`, op: 'entry.create', id: IDS[2], set: { device, activityID: IDS[0], startedAt, endedAt, note: null, createdAt: NOW - 30_000 } }),
  ),
  fc
    .record({
      v: fc.oneof(fc.constant(1), oddValue),
      hlc: hlcText,
      op: fc.constantFrom('activity.create', 'activity.rename', 'activity.delete', 'entry.create', 'entry.edit', 'entry.delete', 'session.start', 'x.y'),
      id: fc.constantFrom(...IDS),
      set: fc.dictionary(fc.constantFrom('name', 'createdAt', 'device', 'activityID', 'startedAt', 'endedAt', 'note'), oddValue),
    })
    .map((o) => JSON.stringify(o)),
  fc.json(),
  oddText,
);

/** One file's content in a device folder. */
const fileContent = (device: string): fc.Arbitrary<{ content: string | Buffer; insider: boolean }> =>
  fc.oneof(
    // Lines signed with the folder key: the insider.
    fc.array(opText, { maxLength: 8 }).map((ops) => ({ content: ops.map((op) => `${signLine(KEY, device, op)}\n`).join(''), insider: true })),
    // Lines signed with another key, or none: the attacker.
    fc.array(opText, { maxLength: 8 }).map((ops) => ({ content: ops.map((op) => `${signLine(WRONG_KEY, device, op)}\n`).join(''), insider: false })),
    fc.array(opText, { maxLength: 8 }).map((ops) => ({ content: ops.map((op) => `{"mac":"${'0'.repeat(64)}","op":${op}}\n`).join(''), insider: false })),
    fc.array(opText, { maxLength: 8 }).map((ops) => ({ content: ops.map((op) => `${op}\n`).join(''), insider: false })),
    // Bytes, and signed text cut anywhere.
    fc.uint8Array({ maxLength: 600 }).map((bytes) => ({ content: Buffer.from(bytes), insider: false })),
    fc.tuple(fc.array(opText, { minLength: 1, maxLength: 4 }), fc.nat()).map(([ops, cut]) => {
      const text = ops.map((op) => `${signLine(KEY, device, op)}\n`).join('');
      return { content: text.slice(0, cut % (text.length + 1)), insider: true };
    }),
  );

type Special = 'fifo' | 'link' | 'folder' | null;

/** What one case puts in the folder: per device, device.json and two segments, each maybe a special file. */
const folderCase = fc.tuple(
  ...DEVICES.map((device) =>
    fc.record({
      deviceJson: fc.oneof(
        fc.constant(JSON.stringify({ deviceID: device, name: device.slice(-4), createdAt: '' })),
        oddText.map((name) => JSON.stringify({ deviceID: device, name, createdAt: '' })),
        fc.uint8Array({ maxLength: 50 }).map((b) => Buffer.from(b).toString('latin1')),
      ),
      segments: fc.array(fc.tuple(fileContent(device), fc.constantFrom<Special>(null, null, null, null, 'fifo', 'link', 'folder')), { minLength: 1, maxLength: 2 }),
    }),
  ),
);

type FolderCase = typeof folderCase extends fc.Arbitrary<infer T> ? T : never;

/** Runs one case; throws when the property does not hold. */
async function oneCase(spec: FolderCase): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'tock-campaign-sync-'));
  const store = openStore(join(root, 'tock.db'));
  const keyStore = { kind: 'file' as const, description: 'memory', read: () => formatSyncKey(KEY), write: () => {}, delete: () => {} };
  const sync = new SyncService({ store, clock: () => NOW, keyStore, rescanMs: 3_600_000, flushMs: 3_600_000 });
  try {
    const tracker = createTracker({ store, clock: () => NOW, timeZone: 'UTC' });
    tracker.logEntry({ name: 'Mine', createIfMissing: true, durationMinutes: 30 });
    const folder = join(root, 'folder');
    mkdirSync(folder);
    writeFileSync(join(root, 'outside.jsonl'), `${signLine(KEY, DEVICES[0] as string, JSON.stringify({ v: 1, hlc: `${NOW - 1}-0-${DEVICES[0]}`, op: 'activity.create', id: IDS[0], set: { name: 'Outside', createdAt: NOW - 1 } }))}\n`);
    // The key check the folder was made with; the reader takes the key from the key store.
    sync.enable(folder, 'me', formatSyncKey(KEY));
    const before = exported(store);
    let attackerOnly = true;
    spec.forEach((device, d) => {
      const id = DEVICES[d] as string;
      const dir = join(folder, 'tock-sync-v2', id);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'device.json'), device.deviceJson);
      device.segments.forEach(([{ content, insider }, special], s) => {
        const path = join(dir, `${String(s + 1).padStart(8, '0')}.jsonl`);
        if (special === 'fifo') execFileSync('mkfifo', [path]);
        else if (special === 'link') symlinkSync(join(root, 'outside.jsonl'), path);
        else if (special === 'folder') mkdirSync(path);
        else {
          writeFileSync(path, content);
          if (insider) attackerOnly = false;
        }
      });
    });
    // The scan ends, and the event loop turns while it runs (a blocking read would hold it).
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    const scanned = sync.syncNow();
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the scan did not end within 20 s')), 20_000);
    });
    try {
      await Promise.race([scanned, limit]);
    } finally {
      clearTimeout(timer);
    }
    if (!turned) throw new Error('the event loop did not turn while the folder was read');
    const after = exported(store) as { activities: { name: string }[]; entries: { start: string; end: string }[]; sessions: unknown[] };
    if (attackerOnly && JSON.stringify(after) !== JSON.stringify(before)) throw new Error('lines without the folder key changed the store');
    for (const a of after.activities) if (nameError(a.name) !== undefined) throw new Error(`an activity name breaking the rules is shown: ${JSON.stringify(a.name)}`);
    for (const e of after.entries) {
      const s = Date.parse(e.start);
      const en = Date.parse(e.end);
      if (!isTimeInRange(s) || !isTimeInRange(en) || en < s || en - s > ENTRY_MAX_MS) throw new Error(`an entry breaking the rules is shown: ${JSON.stringify(e)}`);
    }
    if (after.activities.some((a) => a.name === 'Outside')) throw new Error('a line read through a link was applied');
    // This device's own work is still there.
    if (!after.activities.some((a) => a.name === 'Mine')) throw new Error("this device's activity is gone");
  } finally {
    sync.stop();
    store.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** Runs the campaign `runs` times (seeded when `seed` is given); resolves with the cases run. */
export async function runSyncCampaign(runs: number, seed?: number): Promise<number> {
  let cases = 0;
  await fc.assert(
    fc.asyncProperty(folderCase, async (spec) => {
      cases++;
      await oneCase(spec);
    }),
    { numRuns: runs, ...(seed === undefined ? {} : { seed }), endOnFailure: true },
  );
  return cases;
}
