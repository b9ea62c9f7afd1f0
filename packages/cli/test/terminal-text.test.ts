/**
 * The CLI never prints a control character it did not write itself (docs/security.md "Names"):
 * the sanitizing functions, and a name with ANSI escapes and a bidirectional override that
 * entered an old store (written into SQLite directly, past the name rules) as `tock status`,
 * `current`, `search`, `report` (table, --json, --csv) and `status --format` print it.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it, test } from 'node:test';
import { createTracker, openStore } from '@tock/core';
import { REPLACEMENT, terminalJson, terminalLines, terminalText } from '../src/terminal-text.ts';
import { startRealApp, tock, type RealApp } from './real-app.ts';

/** ESC sequences that retitle the terminal and recolour it, BEL, a C1 CSI, a right-to-left override. */
const HOSTILE = 'Evil\u001b]0;owned\u0007\u001b[31mred\u009b2J\u202Egnp.exe';
// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for them is the test.
const TERMINAL_CONTROL = /[\u0000-\u0008\u000B-\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

test('terminalText replaces every control character and bidirectional override, line breaks included', () => {
  assert.equal(terminalText(HOSTILE), `Evil${REPLACEMENT}]0;owned${REPLACEMENT}${REPLACEMENT}[31mred${REPLACEMENT}2J${REPLACEMENT}gnp.exe`);
  assert.equal(terminalText('a\nb\tc\rd\u2066e'), `a${REPLACEMENT}b${REPLACEMENT}c${REPLACEMENT}d${REPLACEMENT}e`);
  assert.equal(terminalText('Café ✓ “quoted” 项目'), 'Café ✓ “quoted” 项目');
});

test('terminalLines keeps the line breaks and tabs the CLI lays out, and nothing else', () => {
  assert.equal(terminalLines('a\nb\r\nc\td\r'), 'a\nb\r\nc\td\r');
  assert.equal(terminalLines('over\rwrite'), `over${REPLACEMENT}write`);
  assert.equal(terminalLines(`x ${HOSTILE}`), `x ${terminalText(HOSTILE)}`);
});

test('terminalJson escapes what JSON.stringify leaves raw, and reads back as the same data', () => {
  const value = { name: HOSTILE, del: '\u007f', isolate: '\u2066x\u2069' };
  const text = terminalJson(value);
  assert.doesNotMatch(text, TERMINAL_CONTROL);
  assert.match(text, /\\u009b2J\\u202egnp/);
  assert.deepEqual(JSON.parse(text), value);
  assert.equal(terminalJson(undefined), 'null');
});

describe('a hostile name from an old store, printed by the CLI', () => {
  let app: RealApp;

  before(async () => {
    // An old store, made before the app starts: the name went in before the rules, so it is
    // written past them. (Written while an app runs, the app would not see it: it keeps what it
    // read until its own next write, and nothing else writes its store.)
    app = await startRealApp((home) => {
      const store = openStore(join(home, 'tock.db'));
      try {
        const tracker = createTracker({ store });
        tracker.logEntry({ name: 'Evil', createIfMissing: true, durationMinutes: 30 });
        tracker.startActivity({ name: 'Evil' });
      } finally {
        store.close();
      }
      const db = new DatabaseSync(join(home, 'tock.db'));
      try {
        db.prepare("UPDATE activities SET name = ? WHERE name = 'Evil'").run(HOSTILE);
      } finally {
        db.close();
      }
    });
  });

  after(async () => {
    await app.stop();
  });

  for (const argv of [
    ['status'],
    ['current'],
    ['search'],
    ['search', 'evil'],
    ['status', '--format', '{activity} {elapsed}'],
    ['report'],
    ['report', '--csv'],
    ['report', '--json'],
    ['status', '--json'],
  ]) {
    it(`\`tock ${argv.join(' ')}\` prints no control character it did not write`, async () => {
      const run = await tock(app.clientEnv, ...argv);
      assert.equal(run.status, 0, run.err);
      assert.doesNotMatch(run.out + run.err, TERMINAL_CONTROL);
      assert.ok(!run.out.includes('\u001b'), 'no ESC');
      if (argv.includes('--json')) assert.match(run.out, /Evil\\u001b\]0;owned/);
      else assert.match(run.out, new RegExp(`Evil${REPLACEMENT}\\]0;owned`));
    });
  }

  it('a name with control characters typed on the command line is refused by the app, and the error line shows none', async () => {
    for (const argv of [['start', 'x\u001b[2Jy', '--create'], ['log', '10', '\u202Eevil', '--create']]) {
      const run = await tock(app.clientEnv, ...argv);
      assert.equal(run.status, 1);
      assert.match(run.err, /^error: Tock refused the request: name: .*without control characters or bidirectional overrides$/);
      assert.doesNotMatch(run.err, TERMINAL_CONTROL);
    }
  });

  it('`tock report --json` still gives a program the exact name', async () => {
    const run = await tock(app.clientEnv, 'report', '--json');
    assert.deepEqual(
      JSON.parse(run.out).rows.map((r: { activityName: string }) => r.activityName),
      [HOSTILE],
    );
  });
});
