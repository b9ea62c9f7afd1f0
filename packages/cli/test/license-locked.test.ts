/**
 * The CLI against a real app whose trial ended (docs/protocol.md "Order of checks on the server" step 7): the listener refuses every
 * call but the health check with 423, and each command says so in one line that points at
 * `tock license`; `tock ping` still answers and names the state; `tock license` says when
 * the trial ended and how to activate a key.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openStore } from '@tock/core';
import { LIMITS } from '@tock/protocol';
import { startRealApp, tock, type RealApp } from './real-app.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('tock against an app whose license is locked', () => {
  let app: RealApp;
  const firstRunMs = Date.now() - (LIMITS.trialDays + 1) * DAY_MS;

  before(async () => {
    app = await startRealApp((home) => {
      // The app keeps the first run it finds: this home was first run a day past the trial.
      const store = openStore(join(home, 'tock.db'));
      store.settings.set('firstRunMs', firstRunMs);
      store.close();
    });
  });
  after(() => app?.stop());

  for (const argv of [['status'], ['current'], ['start', 'Review', '--create'], ['log', '30m', 'Review', '--create'], ['search', 'rev']]) {
    it(`\`tock ${argv.join(' ')}\` fails with one line that points at \`tock license\``, async () => {
      const run = await tock(app.clientEnv, ...argv);
      assert.equal(run.status, 1, run.out);
      assert.equal(run.out, '');
      assert.equal(run.err, "error: Tock's license is locked; see `tock license` (activate a key with `tock license activate KEY`)");
    });
  }

  for (const argv of [['status'], ['current'], ['start', 'Review', '--create'], ['log', '30m', 'Review', '--create'], ['search', 'rev'], ['stop'], ['branch-changed', 'main']]) {
    it(`\`tock ${argv.join(' ')}\` without a token (the admin socket) fails with the same line`, async () => {
      const run = await tock(app.adminEnv, ...argv);
      assert.deepEqual(run, { status: 1, out: '', err: "error: Tock's license is locked; see `tock license` (activate a key with `tock license activate KEY`)" });
    });
  }

  it('`tock ping` without a token still answers, and names the locked license', async () => {
    const run = await tock(app.adminEnv, 'ping');
    assert.equal(run.status, 0, run.err);
    assert.match(run.out, new RegExp(`^Tock \\S+ is up on 127\\.0\\.0\\.1:${app.port} \\(API v1, license: locked — see \`tock license\`\\)$`));
  });

  it('`tock ping` still answers, and names the locked license', async () => {
    const run = await tock(app.clientEnv, 'ping');
    assert.equal(run.status, 0, run.err);
    assert.match(run.out, /license: locked — see `tock license`/);
  });

  it('`tock license` says when the trial ended and how to go on', async () => {
    const run = await tock(app.adminEnv, 'license');
    const ended = new Date(firstRunMs + LIMITS.trialDays * DAY_MS).toISOString().slice(0, 10);
    assert.equal(run.status, 0, run.err);
    assert.match(run.out, new RegExp(`locked: the trial ended on ${ended}; activate a key with \`tock license activate KEY\``));
  });
});
