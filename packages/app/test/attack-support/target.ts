/**
 * The attack campaign's target: a real `tock app` process (temp TOCK_HOME, file credential
 * store, listener on a free port), the token read with `tock token`, and what every family
 * needs around it — restarting, `kill -9`, the UI session, and a record of everything the app
 * printed and answered, so that the secrets scan (docs/security.md, family 7) can look for the
 * token in all of it.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { request } from 'node:http';
import { TockClient } from '@tock/client';
import { until } from '@tock/test-support';
import { appEnv, spawnApp, tock, type AppProcess } from '../support/app-process.ts';
import { signed, type Answer, type SignedCall } from '../support/signed.ts';
import { freePort } from '../ui-support/harness.ts';

export { appEnv, freePort, signed, spawnApp, tock, type Answer };

/** A running target app and its listener. */
export interface Target {
  readonly env: NodeJS.ProcessEnv;
  readonly home: string;
  readonly port: number;
  readonly token: string;
  /** The current process (replaced by {@link Target.restart}). */
  process(): AppProcess;
  /** The window's address `tock app` printed, with its launch code (good once, for 5 minutes). */
  uiUrl(): string;
  /** Everything every process of this target printed so far. */
  output(): string;
  /** A TockClient for the listener. */
  client(options?: { timeoutMs?: number }): TockClient;
  /** One signed request (independent node:crypto signer); its answer is kept for the scan. */
  call(call: SignedCall): Promise<Answer>;
  /** Keeps a response text seen by a test, for the secrets scan. */
  keep(text: string): void;
  /** Every response text kept so far. */
  kept(): readonly string[];
  /** SIGKILL, and wait for the process to be gone. */
  kill9(): Promise<void>;
  /** Starts the app again under the same home (the listener comes back on its port). */
  restart(): Promise<void>;
  /** Waits until a signed healthcheck answers 200 (the restarted app has bound its port). */
  healthy(): Promise<void>;
  /** SIGTERM and wait for a clean exit. */
  stop(): Promise<void>;
  /** Stops the app if it runs and deletes its home. */
  dispose(): Promise<void>;
}

/** Starts `tock app`, switches the listener on at a free port and reads the token. */
export async function startTarget(extraEnv: NodeJS.ProcessEnv = {}): Promise<Target> {
  const env = appEnv(extraEnv);
  const home = env.TOCK_HOME as string;
  let current = await spawnApp(env);
  let earlier = '';
  const port = await freePort();
  const on = await tock(['listener', 'on', '--port', String(port)], env);
  assert.equal(on.stdout.trim(), `active on 127.0.0.1:${port}`, on.stderr);
  const token = (await tock(['token'], env)).stdout.trim();
  assert.equal(token.length, 43);
  const responses: string[] = [];

  const target: Target = {
    env,
    home,
    port,
    token,
    process: () => current,
    uiUrl() {
      const match = /open: (http:\/\/127\.0\.0\.1:\d+\/\?k=\S+)/.exec(current.output());
      if (!match) throw new Error(`tock app printed no window address: ${current.output()}`);
      return match[1] as string;
    },
    output: () => earlier + current.output(),
    client: (options) => new TockClient({ token, port, timeoutMs: options?.timeoutMs ?? 10_000 }),
    async call(c) {
      const answer = await signed(port, token, c);
      responses.push(answer.text);
      return answer;
    },
    keep: (text) => void responses.push(text),
    kept: () => responses,
    async kill9() {
      current.child.kill('SIGKILL');
      await current.exited;
    },
    async restart() {
      earlier += current.output();
      current = await spawnApp(env);
    },
    async healthy() {
      await until('the listener to answer 200 to a healthcheck', async () => (await signed(port, token, { target: '/healthcheck' }).catch(() => undefined))?.status === 200, {
        watch: current.child,
        everyMs: 50,
      });
    },
    async stop() {
      if (current.child.exitCode !== null || current.child.signalCode !== null) return;
      current.child.kill('SIGTERM');
      await current.exited;
    },
    async dispose() {
      await target.stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
  await target.healthy();
  return target;
}

/** The token must appear nowhere in what the app printed, listed or answered (docs/product.md "The application"). */
export async function assertNoTokenLeak(target: Target): Promise<void> {
  const list = await tock(['requests', '--json'], target.env);
  const places: [string, string][] = [
    ['app output', target.output()],
    ['request list', list.stdout + list.stderr],
    ...target.kept().map((text, i): [string, string] => [`response ${i}`, text]),
  ];
  for (const [where, text] of places) {
    assert.ok(!text.includes(target.token), `the token appears in the ${where}`);
  }
}

/** A plain HTTP GET with the headers given (a window's session header), for the window's server. */
export function httpGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A plain HTTP POST of JSON, for the window's server. */
export function httpPost(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers }, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Trades the printed window address's launch code for a session, as the window does (a
 * same-origin `POST /launch`); `headers` is what every request under `/api/` then carries.
 */
export async function uiSession(target: Target): Promise<{ origin: string; headers: Record<string, string> }> {
  const url = new URL(target.uiUrl());
  const answer = await httpPost(`${url.origin}/launch`, { origin: url.origin }, JSON.stringify({ code: url.searchParams.get('k') }));
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.headers['set-cookie'], undefined, 'the window sets no cookie');
  return { origin: url.origin, headers: { 'x-tock-session': (JSON.parse(answer.text) as { result: { session: string } }).result.session } };
}
