/**
 * Test support for `tock mcp`: the official MCP SDK client connected to `tock mcp` over stdio
 * (every message it was sent kept), and an app started in this process with its listener on —
 * for the tests that write captured spans, heartbeats or calendars into its store themselves.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { startApp, type RunningApp } from '@tock/app/start';
import { pinnedClockEnv } from '@tock/test-support';
import { freePort, TOCK_JS, tockAt } from './real-app.ts';

/** An SDK client on `tock mcp`, what the server sent it, and what `tock mcp` wrote to stderr. */
export interface McpConnection {
  client: Client;
  /** Every message the server sent, as JSON, in order. */
  transcript: string[];
  stderr(): string;
}

/** An SDK client connected to `tock mcp` run with `env`; every message it is sent is kept. */
export async function connectMcp(env: NodeJS.ProcessEnv): Promise<McpConnection> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [TOCK_JS, 'mcp'], env: env as Record<string, string>, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const transcript: string[] = [];
  const client = new Client({ name: 'tock-test', version: '1.0.0' });
  await client.connect(transport);
  const onmessage = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    transcript.push(JSON.stringify(message));
    onmessage?.(message);
  };
  return { client, transcript, stderr: () => stderr };
}

/** Calls a tool and asserts that it did not answer with an error. */
export async function callOk(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  assert.notEqual(result.isError, true, `${name}: ${JSON.stringify(result.content)}`);
  return result;
}

/** An app of this process, in a fresh home, and how `tock` and `tock mcp` reach it. */
export interface InProcessApp {
  app: RunningApp;
  home: string;
  /** The home, the file credential store and the run's pinned clock: what `tock` runs with. */
  env: NodeJS.ProcessEnv;
  /** Runs `tock …` in-process against the app; asserts it succeeded and returns its output. */
  tock(...argv: string[]): Promise<string>;
  /** Turns the listener on at a free port: the environment `tock mcp` is started with. */
  listen(): Promise<NodeJS.ProcessEnv>;
  stop(): Promise<void>;
}

/**
 * Starts an app in this process (no desktop, no capture timers, no focus source: the test
 * writes what capture saw) in a fresh home named `homePrefix…`; `prepare` runs on the empty home.
 */
export async function startInProcessApp(homePrefix: string, prepare?: (home: string) => void): Promise<InProcessApp> {
  const home = mkdtempSync(join(tmpdir(), homePrefix));
  // The app's clock is the run's (pinned) one, which `tock mcp` signs with too.
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, TOCK_HOME: home, TOCK_CREDENTIAL_STORE: 'file', ...(process.env.TZ ? { TZ: process.env.TZ } : {}), ...pinnedClockEnv() };
  prepare?.(home);
  const app = await startApp({
    home,
    env,
    desktop: { timers: false, notifier: { name: 'none', notify: async () => {} }, idleSources: () => [] },
    capture: { timers: false, focusSources: () => [] },
  });
  const tock = async (...argv: string[]): Promise<string> => {
    const run = await tockAt(() => new Date(), env, ...argv);
    assert.equal(run.status, 0, `tock ${argv.join(' ')}: ${run.err}`);
    return run.out;
  };
  return {
    app,
    home,
    env,
    tock,
    async listen() {
      const port = await freePort();
      await tock('listener', 'on', '--port', String(port));
      const token = (await tock('token')).trim();
      return { ...env, SERVICE_TOKEN: token, SERVICE_PORT: String(port) };
    },
    async stop() {
      await app.stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
