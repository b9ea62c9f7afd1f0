/**
 * aw-server-rust (ActivityWatch's server, Rust: Rocket over SQLite) as an optional peer of
 * the bench: issue 42 compares Tock's server CPU per request with it. Used only when its binary
 * is given, `BENCH_AW_SERVER=/path/to/aw-server`; bench/README.md ("aw-server-rust as a peer")
 * says how to build one. Nothing here downloads anything.
 *
 * The peer runs on 127.0.0.1 only, on a free port, with every file it writes (database, config,
 * logs, device id) in a fresh temp dir: `--dbpath` there (which also turns off its import from
 * aw-server-python's data), HOME and the XDG dirs pointed there too. Not `--testing`: that
 * makes Rocket log every request at debug level, which would be measured as its CPU.
 *
 * Its CPU time is read from `/proc/<pid>/stat` (utime + stime of all its threads, in clock
 * ticks: 10 ms each at the usual 100 Hz), so it is Linux-only, and a run must cost it some
 * hundreds of ms of CPU for the tick to stay below a few per cent.
 */

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A running aw-server-rust. */
export interface AwServer {
  readonly port: number;
  readonly pid: number;
  /** Its temp dir: database, config, logs (removed by `stop`). */
  readonly dir: string;
  /** What its `GET /api/0/info` said (its version among it). */
  readonly info: { version?: string; hostname?: string; device_id?: string };
  /** Its CPU time so far (user + system, all threads), µs; clock-tick resolution. */
  cpuUs(): number;
  /** Creates a bucket to post events to. */
  createBucket(id: string): Promise<void>;
  /** Stops it (SIGTERM, SIGKILL after 10 s) and removes its temp dir. */
  stop(): Promise<void>;
}

/** Why the peer cannot run here, or null when it can (the binary given, Linux's /proc). */
export function awServerUnavailable(binary: string | null): string | null {
  if (!binary) {
    return 'no aw-server-rust binary given: set BENCH_AW_SERVER=/path/to/aw-server (bench/README.md, "aw-server-rust as a peer", says how to build one)';
  }
  if (process.platform !== 'linux') return "reads the peer's CPU time from /proc/PID/stat (Linux only)";
  const probe = spawnSync(binary, ['--help'], { encoding: 'utf8', timeout: 30_000 });
  if (probe.error) return `BENCH_AW_SERVER=${binary} cannot be run: ${probe.error.message}`;
  if (probe.status !== 0 || !/--dbpath/.test(probe.stdout) || !/--port/.test(probe.stdout)) {
    return `BENCH_AW_SERVER=${binary} does not look like aw-server-rust ≥ 0.12 (its --help names no --port and --dbpath)`;
  }
  return null;
}

/** Clock ticks per second, for /proc/PID/stat's utime and stime. */
function clockTicks(): number {
  const out = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const ticks = Number(out.stdout?.trim());
  return Number.isFinite(ticks) && ticks > 0 ? ticks : 100;
}

/** utime + stime, in clock ticks, from the text of a `/proc/PID/stat` (proc(5)). */
export function statCpuTicks(stat: string): number {
  // The command name (field 2) is in parentheses and may hold spaces and parentheses: count
  // the fields after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]); // field 14
  const stime = Number(fields[12]); // field 15
  if (!Number.isInteger(utime) || !Number.isInteger(stime)) throw new Error(`not a /proc/PID/stat line: ${stat.slice(0, 80)}`);
  return utime + stime;
}

/** utime + stime of a process (all its threads, those gone included), µs. */
export function procCpuUs(pid: number, ticksPerSecond: number): number {
  return (statCpuTicks(readFileSync(`/proc/${pid}/stat`, 'utf8')) * 1e6) / ticksPerSecond;
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  await once(probe, 'close');
  if (address === null || typeof address === 'string') throw new Error('no port for aw-server-rust');
  return address.port;
}

/** One JSON request to the peer; resolves with the status and the parsed body. */
function call(port: number, method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const bytes = body === undefined ? undefined : Buffer.from(JSON.stringify(body), 'utf8');
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: bytes ? { 'content-type': 'application/json', 'content-length': bytes.length } : {},
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          let json: unknown = null;
          try {
            json = text ? JSON.parse(text) : null;
          } catch {
            json = text;
          }
          resolve({ status: res.statusCode ?? 0, json });
        });
      },
    );
    req.on('error', reject);
    req.end(bytes);
  });
}

/**
 * Waits until the peer answers `GET /api/0/info`: asks again each time its port refuses, as
 * long as the process lives and `timeoutMs` has not passed (Rocket binds after it has opened
 * the database).
 */
async function waitUntilAnswering(child: ChildProcess, port: number, timeoutMs: number): Promise<AwServer['info']> {
  const deadline = performance.now() + timeoutMs;
  let lastError = '';
  for (let attempt = 0; performance.now() < deadline; attempt++) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`aw-server-rust exited (${child.exitCode ?? child.signalCode}) before it answered`);
    }
    try {
      const { status, json } = await call(port, 'GET', '/api/0/info');
      if (status === 200) return json as AwServer['info'];
      lastError = `status ${status}`;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    // Refused: the port is not bound yet. Back off a little more each time (5 ms … 200 ms).
    await new Promise((resolve) => setTimeout(resolve, Math.min(200, 5 * 2 ** attempt)));
  }
  throw new Error(`aw-server-rust did not answer on 127.0.0.1:${port} within ${timeoutMs} ms (${lastError})`);
}

/** Starts aw-server-rust from `binary` on 127.0.0.1 with a temp data dir. */
export async function startAwServer(binary: string, timeoutMs = 60_000): Promise<AwServer> {
  const home = mkdtempSync(join(tmpdir(), 'tock-bench-aw-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CACHE_HOME: join(home, 'cache'),
    // Its own default for a release build; said so that an inherited LOG_LEVEL cannot change it.
    LOG_LEVEL: 'info',
  };
  const child = spawn(binary, ['--host', '127.0.0.1', '--port', String(port), '--dbpath', join(home, 'aw.db'), '--device-id', 'tock-bench'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString('utf8')).slice(-4000);
  });
  const exited = once(child, 'exit').then(() => undefined);
  // The bench's own exit (an error thrown past the figure's finally) must not leave it running.
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  const ticks = clockTicks();
  const stop = async (): Promise<void> => {
    process.removeListener('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(home, { recursive: true, force: true });
  };
  let info: AwServer['info'];
  try {
    info = await waitUntilAnswering(child, port, timeoutMs);
  } catch (error) {
    await stop();
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${message}${stderr ? `; its stderr: ${stderr.trim().slice(-500)}` : ''}`);
  }
  const pid = child.pid as number;
  return {
    port,
    pid,
    dir: home,
    info,
    cpuUs: () => procCpuUs(pid, ticks),
    async createBucket(id) {
      const { status, json } = await call(port, 'POST', `/api/0/buckets/${encodeURIComponent(id)}`, {
        client: 'tock-bench',
        type: 'currentwindow',
        hostname: 'tock-bench',
      });
      if (status !== 200 && status !== 304) throw new Error(`aw-server-rust refused the bucket ${id}: ${status} ${JSON.stringify(json)}`);
    },
    stop,
  };
}

/**
 * The body of one event write, `POST /api/0/buckets/<id>/events` (a list of one event): a
 * minute of a window, as aw-watcher-window would have sent it, at `at`.
 */
export function awEventBody(at: Date): string {
  return JSON.stringify([{ timestamp: at.toISOString(), duration: 60, data: { app: 'Bench', title: 'Bench project 0' } }]);
}
