/**
 * Attack: a note that wedges the app while an invoice is drawn (issue 35.6; docs/data.md
 * "Invoices"). The old line breaker measured an unbroken word one shorter prefix at a time: one
 * 2 000-character note held the app for seconds. Here the notes come in through the signed
 * listener — a 2 000-character unbroken note and 99 more of 2 000 characters, all one
 * activity on one day, so the invoice's one line holds a 200 000-character note — and the
 * invoice is made by `tock invoice`, while the app must keep answering.
 *
 * - Against the real app process: a signed `GET /status` every 10 ms is answered throughout.
 * - Against an app started in this process: the most the app works without a turn of its event
 *   loop while the invoice is made, reissued and downloaded in every format stays under the
 *   100 ms of docs/data.md (the thread's CPU time between ticks of a 2 ms interval; under the
 *   tests' libfaketime, perf_hooks.monitorEventLoopDelay records nothing).
 *
 * Both first make a one-line invoice of another client: the first PDF of a process loads
 * pdf-lib (a synchronous require) and unpacks Helvetica's metrics, once, whatever the notes
 * (docs/data.md "Invoices" says so).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, describe, it } from 'node:test';
import { adminDownload, adminRequest } from '../src/admin.ts';
import { startApp } from '../src/app.ts';
import { homePaths } from '../src/home.ts';
import { startRealApp } from './support/real-app.ts';
import { signed } from './support/signed.ts';

/** The most the app may be held at a time (docs/data.md "Invoices"). */
const HOLD_MS = 100;
/**
 * The slowest a signed `GET /status` may be answered while the invoice is made: the hold, plus
 * a request's own way through a listener and two processes waiting for a core on a machine
 * shared with other test runs (the hold itself is measured in the second test). The old
 * breaker held it 6.4 s on one 2 000-character note.
 */
const STATUS_BOUND_MS = 1_000;

/** A 2 000-character word (no space), then 99 notes of 2 000 characters in words. */
const UNBROKEN = 'W'.repeat(2_000);
const WORDS = Array.from({ length: 99 }, (_, i) => `${`note ${i} `.padEnd(10, '.')}${'lorem ipsum '.repeat(166)}`.slice(0, 2_000));

/**
 * The most the app's thread worked without giving its event loop a turn while `work` ran, in
 * ms: the thread's own CPU time (`process.threadCpuUsage`) between two ticks of a 2 ms
 * interval. CPU time, not the wall clock: on a machine shared with other test runs a turn also
 * comes late while the thread waits for a core, which holds nothing of the app's.
 */
async function longestHold(work: () => Promise<unknown>): Promise<{ cpuMs: number; wallMs: number }> {
  const cpu = (): number => {
    const used = process.threadCpuUsage();
    return (used.user + used.system) / 1000;
  };
  let longest = { cpuMs: 0, wallMs: 0 };
  let last = { cpu: cpu(), wall: performance.now() };
  const turn = (): void => {
    const now = { cpu: cpu(), wall: performance.now() };
    if (now.cpu - last.cpu > longest.cpuMs) longest = { cpuMs: now.cpu - last.cpu, wallMs: now.wall - last.wall };
    last = now;
  };
  const tick = setInterval(turn, 2);
  try {
    await work();
  } finally {
    clearInterval(tick);
  }
  turn();
  return longest;
}

const today = (): string => new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

describe('attack: an invoice of a 200 000-character note, one word of 2 000 characters first', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tock-attack-invoice-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the real app keeps answering a signed GET /status while tock invoice draws it', async (t) => {
    const app = await startRealApp({ homePrefix: 'tock-attack-invoice-' });
    try {
      const ok = async (...args: string[]): Promise<string> => {
        const run = await app.tock(...args);
        assert.equal(run.code, 0, `tock ${args.join(' ')}: ${run.stderr}`);
        return run.stdout;
      };
      await ok('clients', 'add', 'ACME', '--rate', '85', '--currency', 'EUR');
      await ok('clients', 'add', 'Warm', '--rate', '85', '--currency', 'EUR');
      const now = Date.now();
      const warm = await signed(app.port, app.token, { target: '/entries', body: { name: 'Warm-up', createIfMissing: true, durationMinutes: 1, endedAt: new Date(now - 200 * 60_000).toISOString() } });
      assert.equal(warm.status, 201, warm.text);
      await ok('activity', 'set', 'Warm-up', '--client', 'Warm', '--billable');
      await ok('invoice', '--client', 'Warm', '--from', today(), '--to', today(), '--output', join(dir, 'warm.pdf'));
      for (const [i, note] of [UNBROKEN, ...WORDS].entries()) {
        const body = { name: 'Design', createIfMissing: true, durationMinutes: 1, note, endedAt: new Date(now - (100 - i) * 60_000).toISOString() };
        const logged = await signed(app.port, app.token, { target: '/entries', body });
        assert.equal(logged.status, 201, logged.text);
      }
      await ok('activity', 'set', 'Design', '--client', 'ACME', '--billable');

      let polling = true;
      const latencies: number[] = [];
      const poll = (async () => {
        while (polling) {
          const sent = performance.now();
          const answer = await signed(app.port, app.token, { target: '/status' });
          latencies.push(performance.now() - sent);
          assert.equal(answer.status, 200, answer.text);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      })();
      const pdf = join(dir, 'real.pdf');
      try {
        await ok('invoice', '--client', 'ACME', '--from', today(), '--to', today(), '--output', pdf);
      } finally {
        polling = false;
        await poll;
      }
      assert.ok(latencies.length >= 2, `${latencies.length} answers`);
      const slowest = Math.max(...latencies);
      t.diagnostic(`slowest GET /status of ${latencies.length}: ${slowest.toFixed(0)} ms`);
      assert.ok(slowest <= STATUS_BOUND_MS, `GET /status took ${slowest.toFixed(0)} ms while the invoice was drawn`);
      // The line's note is cut to 2 000 characters: the unbroken word (1 999 of it, over two
      // pages) and `…`; the only other W and … are the column Worked and the unset business name.
      const text = execFileSync('pdftotext', ['-raw', pdf, '-'], { encoding: 'utf8' }).replace(/\s+/g, '');
      assert.match(text, /Page2of/);
      assert.equal(text.replace(/Worked|Yourbusiness\(tocksettingssetbusiness…\)/g, '').replace(/[^W…]/g, ''), `${'W'.repeat(1_999)}…`, 'the cut note, whole');
      assert.ok(!text.includes('lorem'), 'nothing after the cut');
    } finally {
      await app.stop();
    }
  });

  it("the app's event loop is never held 100 ms while it makes, reissues and downloads the invoice in every format", async (t) => {
    const home = mkdtempSync(join(dir, 'home-'));
    const now = Date.parse(`${today()}T12:00:00.000Z`);
    const app = await startApp({ home, clock: () => now, env: { ...process.env, TOCK_CREDENTIAL_STORE: 'file' } });
    try {
      const socket = homePaths(home).adminSocket;
      await adminRequest(socket, 'POST', '/clients/add', { name: 'ACME', rate: '85', currency: 'EUR' });
      await adminRequest(socket, 'POST', '/clients/add', { name: 'Warm', rate: '85', currency: 'EUR' });
      app.services.tracker.logEntry({ name: 'Warm-up', createIfMissing: true, durationMinutes: 1, endedAt: new Date(now - 200 * 60_000).toISOString() });
      await adminRequest(socket, 'POST', '/activity/set', { activity: 'Warm-up', client: 'Warm', billable: true });
      for (const [i, note] of [UNBROKEN, ...WORDS].entries()) {
        app.services.tracker.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 1, note, endedAt: new Date(now - (100 - i) * 60_000).toISOString() });
      }
      await adminRequest(socket, 'POST', '/activity/set', { activity: 'Design', client: 'ACME', billable: true });
      const download = async (route: string, input: Record<string, unknown>): Promise<{ bytes: number; summary: unknown }> => {
        let bytes = 0;
        const sink = new Writable({
          write(chunk: Buffer, _encoding, done) {
            bytes += chunk.length;
            done();
          },
        });
        const summary = await adminDownload(socket, route, input, sink);
        return { bytes, summary };
      };
      await download('/invoices/create', { client: 'Warm', from: today(), to: today(), format: 'pdf' });

      const range = { client: 'ACME', from: today(), to: today() };
      let made = { bytes: 0, summary: null as unknown };
      let again: { bytes: number }[] = [];
      const held = await longestHold(async () => {
        made = await download('/invoices/create', { ...range, format: 'pdf' });
        const number = (made.summary as { number: string }).number;
        again = [await download('/invoices/reissue', { number, format: 'pdf' }), await download('/invoices/reissue', { number, format: 'html' }), await download('/invoices/reissue', { number, format: 'csv' })];
      });
      const number = (made.summary as { number: string }).number;
      assert.ok(made.bytes > 1_000 && again.length === 3 && again.every((d) => d.bytes > 1_000));
      t.diagnostic(`longest hold: ${held.cpuMs.toFixed(1)} ms of CPU (${held.wallMs.toFixed(1)} ms on the clock)`);
      assert.ok(held.cpuMs < HOLD_MS, `the app worked ${held.cpuMs.toFixed(1)} ms (${held.wallMs.toFixed(1)} ms on the clock) without a turn of its event loop`);
      // The whole note is kept for the reissue; the cut is only in what is drawn.
      const kept = JSON.stringify(await adminRequest(socket, 'GET', '/invoices'));
      assert.match(kept, new RegExp(number));
      const html = join(dir, 'reissued.html');
      await adminDownload(socket, '/invoices/reissue', { number, format: 'html' }, (await import('node:fs')).createWriteStream(html));
      const page = readFileSync(html, 'utf8');
      assert.ok(page.includes(`<td>${'W'.repeat(1_999)}…</td>`), 'the HTML cuts the note to 2 000 characters');
    } finally {
      await app.stop();
    }
  });
});
