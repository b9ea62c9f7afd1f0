/**
 * Child processes of the benchmark: servers that print one JSON line when ready and stay up
 * (with an IPC channel, so they go when the parent goes), and one-shot measurers (drivers,
 * client loops, the SQLite baseline) that print one JSON line and exit.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { DriverConfig, DriverResult } from '../load/driver.ts';
import type { AppServerConfig, AppServerReady, MemoryReport } from '../servers/app-server.ts';

/** Absolute path of a file under bench/. */
export function benchPath(relative: string): string {
  return fileURLToPath(new URL(`../${relative}`, import.meta.url));
}

/** A running server child. */
export interface ServerHandle<R> {
  readonly ready: R;
  readonly child: ChildProcess;
  /** Its memory (after a full GC when started with --expose-gc, unless `gc` is false). */
  memory(gc?: boolean): Promise<MemoryReport>;
  /** Its CPU time so far (user + system), µs. */
  cpuUs(): Promise<number>;
  /** Asks it to stop and waits for its exit (SIGKILL after 10 s). */
  stop(): Promise<void>;
}

/** Node flags for server children (for example --cpu-prof). */
export interface ServerOptions {
  execArgv?: string[];
  timeoutMs?: number;
}

async function startServer<R>(script: string, args: string[], options: ServerOptions = {}): Promise<ServerHandle<R>> {
  const child = spawn(process.execPath, [...(options.execArgv ?? []), benchPath(script), ...args], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const lines = createInterface({ input: child.stdout! });
  const timeoutMs = options.timeoutMs ?? 120_000;
  const ready = await new Promise<R>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} was not ready within ${timeoutMs} ms`)), timeoutMs);
    lines.once('line', (line) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(line) as R);
      } catch (error) {
        reject(error);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited (${code ?? signal}) before it was ready`));
    });
  });
  lines.on('line', (line) => process.stderr.write(`[${script}] ${line}\n`));
  const exited = child.exitCode !== null ? Promise.resolve() : once(child, 'exit').then(() => undefined);
  return {
    ready,
    child,
    async memory(gc = true) {
      const reply = once(child, 'message') as Promise<[MemoryReport]>;
      child.send({ type: 'memory', gc });
      return (await reply)[0];
    },
    async cpuUs() {
      const reply = once(child, 'message') as Promise<[{ us: number }]>;
      child.send({ type: 'cpu' });
      return (await reply)[0].us;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (child.connected) child.send({ type: 'stop' });
      else child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Starts the real app (bench/servers/app-server.ts). */
export function startAppServer(config: AppServerConfig = {}, options: ServerOptions = {}): Promise<ServerHandle<AppServerReady>> {
  return startServer<AppServerReady>('servers/app-server.ts', [JSON.stringify(config)], options);
}

/** Starts the bare node:http baseline (bench/servers/bare-server.ts). */
export function startBareServer(options: ServerOptions = {}): Promise<ServerHandle<{ port: number; pid: number }>> {
  return startServer('servers/bare-server.ts', [], options);
}

/** Starts the floor stand-in: verifies the request's HMAC, hashes and signs the answer, nothing else (bench/servers/floor-server.ts). */
export function startFloorServer(options: ServerOptions = {}): Promise<ServerHandle<{ port: number; pid: number; token: string }>> {
  return startServer('servers/floor-server.ts', [], options);
}

/** Starts the floor of a durable signed `POST /entries` (bench/servers/entry-floor.ts). */
export function startEntryFloorServer(options: ServerOptions = {}): Promise<ServerHandle<{ port: number; pid: number; token: string }>> {
  return startServer('servers/entry-floor.ts', [], options);
}

/** Starts the floor of a heartbeat bulk (bench/servers/heartbeat-floor.ts). */
export function startHeartbeatFloorServer(options: ServerOptions = {}): Promise<ServerHandle<{ port: number; pid: number; editorKey: string }>> {
  return startServer('servers/heartbeat-floor.ts', [], options);
}

/** Starts the bare node:http server-sent-events baseline (bench/servers/sse-server.ts). */
export function startSseServer(options: ServerOptions = {}): Promise<ServerHandle<{ port: number; pid: number }>> {
  return startServer('servers/sse-server.ts', [], options);
}

/** Runs a command to completion and parses the last line it printed as JSON. */
export async function runJson<T>(command: string, args: string[], timeoutMs = 120_000, env?: NodeJS.ProcessEnv): Promise<T> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: env ?? process.env });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  const last = out.trim().split('\n').pop() ?? '';
  if (code !== 0) {
    throw new Error(`${[command, ...args].join(' ').slice(0, 200)} failed (${code ?? signal}): ${err.trim().slice(-2000)}`);
  }
  try {
    return JSON.parse(last) as T;
  } catch {
    throw new Error(`${command} printed no JSON result: ${out.slice(-500)} ${err.slice(-500)}`);
  }
}

/** Runs a bench/ TypeScript script with this Node and returns its JSON result. */
export function runNodeScript<T>(script: string, args: string[], timeoutMs?: number): Promise<T> {
  return runJson<T>(process.execPath, [benchPath(script), ...args], timeoutMs);
}

/** What a driver run cost the server: CPU time per answered request (warm-up included), µs. */
export interface ServerCost {
  serverCpuUsPerRequest: number;
}

/**
 * Runs the load generator once. Given the server, also measures the server's CPU time per
 * request over the whole run: unlike requests per second, it hardly moves when other work
 * takes the machine's cores, so it is the steady cross-check of every server-bound figure.
 */
export async function drive(config: DriverConfig, server?: ServerHandle<unknown>): Promise<DriverResult & Partial<ServerCost>> {
  const before = server ? await server.cpuUs() : 0;
  const result = await runNodeScript<DriverResult>('load/driver.ts', [JSON.stringify(config)], config.warmupMs + config.durationMs + 60_000);
  if (!server) return result;
  const used = (await server.cpuUs()) - before;
  return { ...result, serverCpuUsPerRequest: used / Math.max(1, result.totalOk) };
}
