/**
 * How this device writes its own segments (docs/sync.md "Layout"): whole, through a temporary
 * file renamed over the old one, never in place, so a file-sync engine or a reader that has the
 * old file open never sees half of a write.
 */
import assert from 'node:assert/strict';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { segmentName, writeSegment } from '../src/folder.ts';

const DEVICE = 'aaaaaaaa-0000-4000-8000-000000000001';

test('a segment is rewritten by temp file and rename: a reader of the old file keeps it whole, and no temp file is left', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tock-segment-write-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const own = join(dir, 'tock-sync-v2', DEVICE);
  mkdirSync(own, { recursive: true });
  const path = join(own, segmentName(1));
  assert.equal(segmentName(1), '00000001.jsonl', 'n zero-padded to 8 digits');

  writeSegment(dir, DEVICE, 1, ['{"line":1}']);
  const before = statSync(path).ino;
  const reader = openSync(path, 'r');
  try {
    writeSegment(dir, DEVICE, 1, ['{"line":1}', '{"line":2}']);
    const old = Buffer.alloc(64);
    const n = readSync(reader, old, 0, old.length, 0);
    assert.equal(old.subarray(0, n).toString('utf8'), '{"line":1}\n', 'the file the reader opened is not written in place');
  } finally {
    closeSync(reader);
  }
  assert.notEqual(statSync(path).ino, before, 'a new file took the name');
  assert.equal(readFileSync(path, 'utf8'), '{"line":1}\n{"line":2}\n', 'every line ends with its newline');
  assert.deepEqual(readdirSync(own), ['00000001.jsonl']);
});
