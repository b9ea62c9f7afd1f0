/**
 * Test support for `tock mcp`: the official MCP SDK client connected to `tock mcp` over stdio,
 * every message it was sent kept (the app it reaches: in-process-app.ts).
 */
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { TOCK_JS } from './real-app.ts';

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
