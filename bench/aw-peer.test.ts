/**
 * The aw-server-rust peer (peers/aw-server-rust.ts) and its figure (figures/writes-aw.ts),
 * without the real binary: a stand-in script that answers as aw-server-rust does, so the rules
 * hold wherever the suite runs. The figure skips, saying why, when no binary is given; the peer
 * starts the binary on 127.0.0.1 with its files in a temp dir it removes, refuses a binary
 * that is not aw-server-rust, and reads the peer's CPU time from /proc.
 */

import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { awServerFigures } from './figures/writes-aw.ts';
import type { BenchConfig } from './lib/figure.ts';
import { awServerUnavailable, startAwServer, statCpuTicks } from './peers/aw-server-rust.ts';

const scratch = mkdtempSync(join(tmpdir(), 'tock-aw-peer-test-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A stand-in for aw-server-rust: `--help` as clap prints it, `GET /api/0/info`, bucket
 * creation, and `POST /burn`, which spends 200 ms of its own CPU time (whatever the load).
 * It writes what it was started with into its data dir. CommonJS, so that any Node runs it.
 */
const STAND_IN = `#!/usr/bin/env node
const { createServer } = require('node:http');
const { writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const args = process.argv.slice(2);
if (args.includes('--help')) {
  console.log('Usage: aw-server [OPTIONS]\\n      --host <HOST>\\n      --port <PORT>\\n      --dbpath <DBPATH>');
  process.exit(0);
}
const opt = (name) => args[args.indexOf(name) + 1];
writeFileSync(join(dirname(opt('--dbpath')), 'seen.json'), JSON.stringify({ args, env: process.env }));
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.method === 'POST' && req.url === '/burn') {
      const start = process.cpuUsage();
      for (;;) { const used = process.cpuUsage(start); if (used.user + used.system >= 200_000) break; }
    }
    const ok = req.url === '/api/0/info' || req.url.startsWith('/api/0/buckets/') || req.url === '/burn';
    res.writeHead(ok ? 200 : 404, { 'content-type': 'application/json' });
    res.end(req.url === '/api/0/info' ? JSON.stringify({ version: 'v0.0.0 (stand-in)' }) : '');
  });
});
server.listen(Number(opt('--port')), opt('--host'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

function executable(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  chmodSync(path, 0o755);
  return path;
}

const standIn = executable('aw-server', STAND_IN);

function post(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

test('utime + stime are read after a command name holding spaces and parentheses', () => {
  // Fields 14 and 15 (proc(5)); the name's own ") (" must not shift them.
  const stat = '4242 (aw-server (x) y) S 1 4242 4242 0 -1 4194560 900 0 0 0 1234 56 0 0 20 0 9 0 100 0 0';
  assert.equal(statCpuTicks(stat), 1234 + 56);
  assert.throws(() => statCpuTicks('garbage'), /not a \/proc\/PID\/stat line/);
});

test('without a binary the figures are skipped and say how to get one', async () => {
  const lines: string[] = [];
  const config = { log: (line: string) => lines.push(line) } as unknown as BenchConfig;
  const figures = await awServerFigures(config, null);
  assert.deepEqual(
    figures.map((f) => [f.id, f.status, f.pass]),
    [
      ['entries-cpu-aw', 'skipped', null],
      ['entries-cpu-floor-aw', 'skipped', null],
      ['status-cpu-aw', 'skipped', null],
    ],
  );
  for (const figure of figures) assert.match(figure.note ?? '', /BENCH_AW_SERVER=\/path\/to\/aw-server.*bench\/README\.md/);
  assert.match(lines.join('\n'), /SKIPPED: no aw-server-rust binary given/);
});

test('a binary that cannot run, or is not aw-server-rust, is refused with the reason', () => {
  assert.match(awServerUnavailable(join(scratch, 'missing')) ?? '', /cannot be run/);
  const other = executable('not-aw', '#!/bin/sh\necho "usage: not-aw [--verbose]"\n');
  assert.match(awServerUnavailable(other) ?? '', /does not look like aw-server-rust/);
  assert.equal(awServerUnavailable(standIn), null);
});

test('the peer runs on 127.0.0.1 with every file in a temp dir, its CPU read from /proc, and stop removes the dir', async () => {
  const peer = await startAwServer(standIn);
  let stopped = false;
  try {
    assert.equal(peer.info.version, 'v0.0.0 (stand-in)');
    const seen = JSON.parse(readFileSync(join(peer.dir, 'seen.json'), 'utf8')) as { args: string[]; env: Record<string, string> };
    assert.deepEqual(seen.args.slice(0, 4), ['--host', '127.0.0.1', '--port', String(peer.port)]);
    assert.equal(seen.args[seen.args.indexOf('--dbpath') + 1], join(peer.dir, 'aw.db'));
    for (const name of ['HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME']) {
      assert.ok(seen.env[name]?.startsWith(peer.dir), `${name}=${seen.env[name]} is inside ${peer.dir}`);
    }
    await peer.createBucket('tock-bench-window');

    const before = peer.cpuUs();
    assert.equal(await post(peer.port, '/burn'), 200);
    const used = peer.cpuUs() - before;
    // 200 ms of its CPU, read at clock-tick resolution (10 ms at 100 Hz), plus its HTTP work.
    assert.ok(used >= 180_000 && used < 2_000_000, `measured ${used} µs of the stand-in's CPU for its 200 ms`);

    await peer.stop();
    stopped = true;
    assert.equal(existsSync(peer.dir), false);
  } finally {
    if (!stopped) await peer.stop();
  }
});
