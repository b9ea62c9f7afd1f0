/**
 * `tock mcp` driven by the official MCP SDK's own client over stdio, against a real app with
 * its listener on: the tools are listed with their annotations, each call changes or reads the
 * real state, refusals are `isError` results with the line `tock` would print, and the token
 * appears nowhere in what the server says.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connectMcp, type McpConnection } from './mcp-client.ts';
import { startRealApp, type RealApp } from './real-app.ts';

async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function text(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

describe('tock mcp against a real app, through the official SDK client', () => {
  let app: RealApp;
  let mcp: McpConnection;

  before(async () => {
    app = await startRealApp();
    mcp = await connectMcp(app.clientEnv);
  });
  after(async () => {
    await mcp?.client.close();
    await app?.stop();
  });

  it('lists the eight tools, the read-only ones annotated so', async () => {
    const { tools } = await mcp.client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    assert.deepEqual([...byName.keys()].sort(), ['accept_suggestion', 'get_report', 'get_status', 'get_suggestions', 'log_time', 'search_activities', 'start_activity', 'stop_activity']);
    for (const name of ['get_status', 'search_activities', 'get_report', 'get_suggestions']) assert.equal(byName.get(name)!.annotations?.readOnlyHint, true, name);
    for (const name of ['start_activity', 'stop_activity', 'log_time', 'accept_suggestion']) assert.equal(byName.get(name)!.annotations?.readOnlyHint, false, name);
    assert.deepEqual(byName.get('accept_suggestion')!.inputSchema.required, ['id']);
    assert.deepEqual(byName.get('log_time')!.inputSchema.required?.sort(), ['duration', 'name']);
  });

  it('takes the inputs docs/integrations.md names, by those names', async () => {
    const { tools } = await mcp.client.listTools();
    const inputs = Object.fromEntries(
      tools.map((tool) => [tool.name, { names: Object.keys(tool.inputSchema.properties ?? {}).sort(), required: [...(tool.inputSchema.required ?? [])].sort() }]),
    );
    assert.deepEqual(inputs, {
      get_status: { names: [], required: [] },
      search_activities: { names: ['limit', 'query'], required: ['query'] },
      start_activity: { names: ['createIfMissing', 'name', 'note'], required: ['name'] },
      stop_activity: { names: [], required: [] },
      log_time: { names: ['createIfMissing', 'duration', 'name', 'note'], required: ['duration', 'name'] },
      get_report: { names: ['by', 'from', 'to'], required: [] },
      get_suggestions: { names: ['date'], required: [] },
      accept_suggestion: { names: ['activityName', 'id'], required: ['id'] },
    });
    const by = (tools.find((tool) => tool.name === 'get_report')!.inputSchema.properties as { by: { enum: string[] } }).by;
    assert.deepEqual(by.enum, ['activity', 'day', 'client', 'tag'], 'the groupings of GET /report');
  });

  it('get_report groups by client and by tag as GET /report does', async () => {
    await callTool(mcp.client, 'log_time', { name: 'Tagless', duration: '10m', createIfMissing: true });
    const byClient = await callTool(mcp.client, 'get_report', { by: 'client' });
    assert.equal(byClient.isError, undefined, text(byClient));
    const clientRows = (byClient.structuredContent!['result'] as { rows: { clientID: string | null; clientName: string | null; seconds: number }[] }).rows;
    assert.ok(clientRows.some((row) => row.clientID === null && row.clientName === null && row.seconds >= 600), JSON.stringify(clientRows));
    assert.match(text(byClient), /^\(no client\): /m);
    const byTag = await callTool(mcp.client, 'get_report', { by: 'tag' });
    assert.equal(byTag.isError, undefined, text(byTag));
    assert.ok((byTag.structuredContent!['result'] as { rows: { tag: string | null }[] }).rows.some((row) => row.tag === null));
    assert.match(text(byTag), /^\(no tag\): /m);
  });

  it('starts, reads, logs, searches, reports and stops, each answer holding the wire result', async () => {
    const started = await callTool(mcp.client, 'start_activity', { name: 'Writing docs', createIfMissing: true });
    assert.equal(started.isError, undefined, text(started));
    assert.match(text(started), /Started new activity "Writing docs"/);
    assert.equal((started.structuredContent!['result'] as { activityName: string }).activityName, 'Writing docs');

    const status = await callTool(mcp.client, 'get_status');
    const result = status.structuredContent!['result'] as { isTracking: boolean; currentActivity: { activityName: string } };
    assert.equal(result.isTracking, true);
    assert.equal(result.currentActivity.activityName, 'Writing docs');
    assert.match(text(status), /Tracking "Writing docs"/);

    const logged = await callTool(mcp.client, 'log_time', { name: 'Review', duration: '1h 30m', note: 'PR 12', createIfMissing: true });
    assert.equal(logged.isError, undefined, text(logged));
    const entry = logged.structuredContent!['result'] as { startedAt: string; endedAt: string; durationMinutes: number; note: string };
    assert.equal(entry.durationMinutes, 90);
    assert.equal((Date.parse(entry.endedAt) - Date.parse(entry.startedAt)) / 60_000, 90);
    assert.equal(entry.note, 'PR 12');

    const found = await callTool(mcp.client, 'search_activities', { query: 'rev' });
    assert.deepEqual((found.structuredContent!['result'] as { activityName: string }[]).map((a) => a.activityName), ['Review']);

    const report = await callTool(mcp.client, 'get_report', { by: 'activity' });
    const rows = (report.structuredContent!['result'] as { rows: { activityName: string; seconds: number }[] }).rows;
    assert.ok(rows.some((row) => row.activityName === 'Review' && row.seconds === 5400), JSON.stringify(rows));

    const stopped = await callTool(mcp.client, 'stop_activity');
    assert.equal(stopped.isError, undefined, text(stopped));
    const after = await callTool(mcp.client, 'get_status');
    assert.equal((after.structuredContent!['result'] as { isTracking: boolean }).isTracking, false);
    assert.equal((await callTool(mcp.client, 'stop_activity')).structuredContent!['result'], null);
  });

  it('start_activity takes a note for the session', async () => {
    const started = await callTool(mcp.client, 'start_activity', { name: 'Noted', createIfMissing: true, note: 'chapter 3' });
    assert.equal(started.isError, undefined, text(started));
    const tooLong = await callTool(mcp.client, 'start_activity', { name: 'Noted', note: 'x'.repeat(2001) });
    assert.equal(tooLong.isError, true);
    await callTool(mcp.client, 'stop_activity');
  });

  it('answers a refusal as isError with the one line tock prints', async () => {
    const unknown = await callTool(mcp.client, 'start_activity', { name: 'Nothing like this' });
    assert.equal(unknown.isError, true);
    assert.match(text(unknown), /no activity named "Nothing like this".*--create|createIfMissing|create/i);
    const badDuration = await callTool(mcp.client, 'log_time', { name: 'Review', duration: '90s' });
    assert.equal(badDuration.isError, true);
    assert.match(text(badDuration), /write .*1h30m/);
    const backwards = await callTool(mcp.client, 'get_report', { from: '2026-03-02', to: '2026-03-01' });
    assert.equal(backwards.isError, true);
    assert.doesNotMatch(text(backwards), /\n/);
  });

  it('get_suggestions reads a day through the listener; accept_suggestion of an id that is no suggestion is refused in one line', async () => {
    const day = await callTool(mcp.client, 'get_suggestions', { date: '2026-03-02' });
    assert.equal(day.isError, undefined, text(day));
    assert.deepEqual(day.structuredContent!['result'], { date: '2026-03-02', suggestions: [] });
    const gone = await callTool(mcp.client, 'accept_suggestion', { id: '20260302-0000000000000000', activityName: 'Review' });
    assert.equal(gone.isError, true);
    assert.match(text(gone), /no suggestion 20260302-0000000000000000/);
    assert.doesNotMatch(text(gone), /\n/);
  });

  it('never says the token, in any message it sent', () => {
    assert.ok(mcp.transcript.length > 5);
    assert.doesNotMatch(mcp.transcript.join('\n') + mcp.stderr(), new RegExp(app.token.replace(/[-]/g, '\\-')));
  });

  it('starts without a token, and every tool says how to set SERVICE_TOKEN', async () => {
    const { SERVICE_TOKEN: _, ...noToken } = app.clientEnv;
    const bare = await connectMcp(noToken);
    try {
      for (const { name } of (await bare.client.listTools()).tools) {
        const args = name === 'search_activities' ? { query: '' } : name === 'start_activity' ? { name: 'X' } : name === 'log_time' ? { name: 'X', duration: '5m' } : name === 'accept_suggestion' ? { id: 'x' } : {};
        const result = await callTool(bare.client, name, args);
        assert.equal(result.isError, true, name);
        assert.match(text(result), /SERVICE_TOKEN/, name);
      }
    } finally {
      await bare.client.close();
    }
  });

  it('says a wrong port or a stopped listener as one line, not a stack', async () => {
    const elsewhere = await connectMcp({ ...app.clientEnv, SERVICE_PORT: '1' });
    try {
      const result = await callTool(elsewhere.client, 'get_status');
      assert.equal(result.isError, true);
      assert.match(text(result), /^nothing is listening on 127\.0\.0\.1:1|could not reach Tock/);
    } finally {
      await elsewhere.client.close();
    }
  });
});
