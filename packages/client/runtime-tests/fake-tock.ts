/**
 * A small stand-in for the Tock listener, for the client's tests: the endpoints of
 * docs/protocol.md "Endpoints", `GET /report` and the event stream `GET /events` (a status
 * event after every write, a branch-prompt after POST /branch-changed) with just enough state, real request verification and response signing (done
 * here with node:crypto, independently of @tock/protocol's HMAC code), and a queue of
 * misbehaviours (unsigned or wrongly signed answers, forced statuses, hangs, dropped
 * connections, redirects) for the error cases.
 *
 * In process: `await startFakeTock({ token })`. As a program (Node ≥ 24):
 * `node fake-tock.ts --token T` prints `{"port":N}` and serves until SIGTERM; the
 * misbehaviours are then queued over HTTP with `POST /__fake/next` (unsigned; see below).
 */

import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { HEADER, LICENSE_LOCKED_BODY, LIMITS, NONCE_PATTERN, SIGNATURE_PATTERN, TIMESTAMP_PATTERN } from '@tock/protocol';

/** How the next request is answered instead of normally. */
export interface Misbehaviour {
  /** Answer with this status and an error envelope (423: the exact locked body). */
  status?: number;
  code?: string;
  message?: string;
  details?: { field: string; message: string }[];
  /** `ok` (default), `none` (no response signature) or `wrong-key`. */
  sign?: 'ok' | 'none' | 'wrong-key';
  headers?: Record<string, string>;
  /**
   * `hang`: never answer; `drop`: close the connection without answering; `drop-attempt`:
   * the same, and also for any resend of that request (same nonce) — Deno's fetch resends a
   * request once when the connection is reset under it, Node's and Bun's do not; `redirect`: 302.
   */
  action?: 'hang' | 'drop' | 'drop-attempt' | 'redirect';
}

/** One request the fake received (control requests excluded). */
export interface ReceivedRequest {
  method: string;
  target: string;
  nonce: string | undefined;
  timestamp: string | undefined;
  idempotencyKey: string | undefined;
  signatureValid: boolean;
  body: string;
}

export interface FakeTock {
  port: number;
  url: string;
  /** Queues misbehaviours, one per coming request. */
  next(...m: Misbehaviour[]): void;
  /**
   * Sends an event to every open stream (`sig`: `none` leaves the field out, `wrong` signs with
   * another key); returns its id.
   */
  publish(type: string, data: unknown, sig?: 'ok' | 'none' | 'wrong'): string;
  /** Ends every open stream (as a listener turned off would); clients reconnect. */
  endStreams(): void;
  /** Event streams open now. */
  readonly openStreams: number;
  requests: ReceivedRequest[];
  /** A port on 127.0.0.1 that nothing listens on. */
  closedPort(): Promise<number>;
  reset(): void;
  close(): Promise<void>;
}

interface Activity {
  activityID: string;
  activityName: string;
  lastUsed: number;
}

interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

const hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string, text: string) => 'v1=' + createHmac('sha256', Buffer.from(key, 'utf8')).update(text, 'utf8').digest('hex');

/** Starts the fake on 127.0.0.1 (port 0: any free port). */
export async function startFakeTock(options: { token: string; port?: number }): Promise<FakeTock> {
  const token = options.token;
  const queue: Misbehaviour[] = [];
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  let state = freshState();
  const seenNonces = new Set<string>();
  const idempotent = new Map<string, { bodyHash: string; reply: Reply }>();

  function freshState() {
    return {
      activities: new Map<string, Activity>(),
      running: null as { activity: Activity; startedAt: number } | null,
      entrySeconds: 0,
      /** Whether today's one suggestion (an hour ending at midnight UTC) was accepted. */
      suggestionAccepted: false,
    };
  }

  /** Today's one suggestion while it is not accepted: an unlabelled hour of "Code" before now. */
  function suggestionsOf(date: string, now: number) {
    const today = new Date(now).toISOString().slice(0, 10);
    if (date !== today || state.suggestionAccepted) return [];
    const end = Math.floor(now / 60_000) * 60_000;
    return [
      {
        id: `${today.replaceAll('-', '')}-00000000000000a1`,
        start: new Date(end - 3_600_000).toISOString(),
        end: new Date(end).toISOString(),
        seconds: 3600,
        activityID: null,
        activityName: null,
        sources: [{ source: 'window', app: 'Code', title: null, project: null, branch: null, seconds: 3600 }],
        ruleID: null,
      },
    ];
  }

  /** Nonces of attempts dropped with `drop-attempt`: a runtime's resend of one is dropped too. */
  const droppedNonces = new Set<string>();

  // ---- the event stream -----------------------------------------------------------------
  const RUN = 'fakeRun00001';
  const streams = new Set<{ res: ServerResponse; nonce: string; signWith: string }>();
  let events: { id: string; type: string; data: string }[] = [];
  let seq = 0;

  function eventText(stream: { nonce: string; signWith: string }, event: { id: string; type: string; data: string }, sig: 'ok' | 'none' | 'wrong' = 'ok'): string {
    const signed = hmac(sig === 'wrong' ? 'not-the-token' : stream.signWith, ['TOCK-HMAC-SHA256-EVENT', stream.nonce, event.id, event.type, hex(event.data)].join('\n'));
    return `id: ${event.id}\nevent: ${event.type}\ndata: ${event.data}\n${sig === 'none' ? '' : `sig: ${signed}\n`}\n`;
  }

  function publish(type: string, data: unknown, sig: 'ok' | 'none' | 'wrong' = 'ok'): string {
    const event = { id: `${RUN}.${++seq}`, type, data: JSON.stringify(data) };
    events.push(event);
    for (const stream of streams) stream.res.write(eventText(stream, event, sig));
    return event.id;
  }

  /** GET /events: signed headers (over the empty body), then the events after Last-Event-ID or a fresh status. */
  function openStream(req: IncomingMessage, res: ServerResponse, nonce: string, signWith: string | undefined): void {
    const headers: Record<string, string> = { 'content-type': 'text/event-stream', [HEADER.apiVersion]: '1', 'cache-control': 'no-store' };
    if (signWith !== undefined) headers[HEADER.responseSignature] = hmac(signWith, ['TOCK-HMAC-SHA256-RESPONSE', nonce, '200', hex('')].join('\n'));
    res.writeHead(200, headers);
    const stream = { res, nonce, signWith: signWith ?? 'not-the-token' };
    const last = single(req, 'last-event-id');
    const at = last === undefined ? -1 : events.findIndex((e) => e.id === last);
    if (at >= 0) for (const event of events.slice(at + 1)) res.write(eventText(stream, event));
    else {
      const status = { id: `${RUN}.${++seq}`, type: 'status', data: JSON.stringify((handle('GET', '/status', Buffer.alloc(0)).body as { result: unknown }).result) };
      res.write(eventText(stream, status));
    }
    if (res.writableLength === 0) res.flushHeaders();
    streams.add(stream);
    res.on('close', () => streams.delete(stream));
  }

  function endStreams(): void {
    for (const stream of streams) stream.res.end();
    streams.clear();
  }

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const target = req.url ?? '/';
    if (target.startsWith('/__fake/')) return control(req, res, target, raw);
    const nonce = single(req, HEADER.nonce);
    const timestamp = single(req, HEADER.timestamp);
    const signature = single(req, HEADER.signature);
    const expected =
      nonce && timestamp
        ? hmac(token, ['TOCK-HMAC-SHA256', timestamp, nonce, req.method ?? '', target, hex(raw)].join('\n'))
        : '';
    const signatureValid =
      !!signature && SIGNATURE_PATTERN.test(signature) && expected.length === signature.length &&
      timingSafeEqual(Buffer.from(expected), Buffer.from(signature));
    requests.push({
      method: req.method ?? '',
      target,
      nonce,
      timestamp,
      idempotencyKey: single(req, HEADER.idempotencyKey),
      signatureValid,
      body: raw.toString('utf8'),
    });

    if (nonce !== undefined && droppedNonces.has(nonce)) return req.socket.destroy();
    const misbehaviour = queue.shift();
    if (misbehaviour?.action === 'hang') return;
    if (misbehaviour?.action === 'drop') return req.socket.destroy();
    if (misbehaviour?.action === 'drop-attempt') {
      if (nonce !== undefined) droppedNonces.add(nonce);
      return req.socket.destroy();
    }
    if (misbehaviour?.action === 'redirect') {
      res.writeHead(302, { location: '/__fake/redirected' }).end();
      return;
    }

    if (!nonce || !timestamp || !signature || !TIMESTAMP_PATTERN.test(timestamp) || !NONCE_PATTERN.test(nonce)) {
      return send(res, { status: 401, body: problem('missing_auth', 'missing or malformed auth headers') }, undefined);
    }
    if (Math.abs(Date.now() / 1000 - Number(timestamp)) > LIMITS.clockSkewSeconds) {
      return send(res, { status: 401, body: problem('clock_drift', 'the request timestamp is too far from the clock') }, undefined);
    }
    if (!signatureValid) return send(res, { status: 401, body: problem('bad_signature', 'bad signature') }, undefined);
    const signWith = misbehaviour?.sign === 'none' ? undefined : misbehaviour?.sign === 'wrong-key' ? 'not-the-token' : token;
    if (seenNonces.has(nonce)) {
      return send(res, { status: 409, body: problem('nonce_reused', 'this nonce was already used') }, signWith, nonce);
    }
    seenNonces.add(nonce);

    let reply: Reply;
    if (misbehaviour?.status !== undefined) {
      const status = misbehaviour.status;
      reply = {
        status,
        body:
          status === 423
            ? JSON.parse(LICENSE_LOCKED_BODY)
            : status < 300
              ? { ok: true, result: null }
              : { ...problem(misbehaviour.code ?? `http_${status}`, misbehaviour.message ?? `forced ${status}`), ...(misbehaviour.details ? { details: misbehaviour.details } : {}) },
        headers: misbehaviour.headers ?? {},
      };
    } else {
      const key = single(req, HEADER.idempotencyKey);
      const cacheKey = key === undefined ? undefined : `${req.method} ${target} ${key}`;
      const cached = cacheKey === undefined ? undefined : idempotent.get(cacheKey);
      if (cached && cached.bodyHash !== hex(raw)) {
        reply = { status: 409, body: problem('idempotency_conflict', 'this idempotency key was used with another request') };
      } else if (cached) {
        reply = cached.reply;
      } else {
        if (req.method === 'GET' && target.split('?')[0] === '/events') return openStream(req, res, nonce, signWith);
        reply = handle(req.method ?? '', target, raw);
        afterWrite(req.method ?? '', target, reply);
        if (cacheKey !== undefined && reply.status < 300) idempotent.set(cacheKey, { bodyHash: hex(raw), reply });
      }
      if (misbehaviour?.headers) reply = { ...reply, headers: { ...reply.headers, ...misbehaviour.headers } };
    }
    send(res, reply, signWith, nonce);
  });

  /** The events a real app sends after a write (docs/protocol.md "The event stream"). */
  function afterWrite(method: string, target: string, reply: Reply): void {
    if (method !== 'POST' || reply.status >= 300) return;
    if (target === '/branch-changed') publish('branch-prompt', (reply.body as { result: unknown }).result);
    else publish('status', (handle('GET', '/status', Buffer.alloc(0)).body as { result: unknown }).result);
  }

  function control(req: IncomingMessage, res: ServerResponse, target: string, raw: Buffer): void {
    const json = (status: number, value: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    };
    if (target === '/__fake/next' && req.method === 'POST') {
      queue.push(...(JSON.parse(raw.toString('utf8') || '[]') as Misbehaviour[]));
      json(200, { queued: queue.length });
      return;
    }
    if (target === '/__fake/requests') {
      json(200, requests);
      return;
    }
    if (target === '/__fake/event' && req.method === 'POST') {
      const { type, data, sig } = JSON.parse(raw.toString('utf8')) as { type: string; data: unknown; sig?: 'ok' | 'none' | 'wrong' };
      json(200, { id: publish(type, data, sig) });
      return;
    }
    if (target === '/__fake/end-streams' && req.method === 'POST') {
      endStreams();
      json(200, {});
      return;
    }
    if (target === '/__fake/reset' && req.method === 'POST') {
      fake.reset();
      json(200, {});
      return;
    }
    if (target === '/__fake/closed-port') {
      fake.closedPort().then((port) => json(200, { port }), () => json(500, {}));
      return;
    }
    // Where the redirect misbehaviour points; a client that follows redirects lands here.
    requests.push({ method: req.method ?? '', target, nonce: undefined, timestamp: undefined, idempotencyKey: undefined, signatureValid: false, body: '' });
    json(200, { ok: true, result: 'followed a redirect' });
  }

  function handle(method: string, target: string, raw: Buffer): Reply {
    const url = new URL(target, 'http://127.0.0.1');
    const route = `${method} ${url.pathname}`;
    let body: Record<string, unknown> = {};
    if (method === 'POST' && raw.length > 0) {
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return { status: 400, body: problem('invalid_json', 'the body is not valid JSON') };
      }
    }
    const now = Date.now();
    switch (route) {
      case 'GET /healthcheck':
        return ok({ status: 'ok', apiVersion: 1, appVersion: '0.0.0-fake', license: 'trial' });
      case 'GET /current':
        return ok(state.running ? ref(state.running.activity) : null);
      case 'GET /status': {
        const r = state.running;
        const runningSeconds = r ? Math.floor((now - r.startedAt) / 1000) : 0;
        return ok({
          isTracking: r !== null,
          isOnBreak: false,
          currentActivity: r ? ref(r.activity) : null,
          todaySeconds: Math.round(state.entrySeconds + runningSeconds),
          since: r ? new Date(r.startedAt).toISOString() : null,
        });
      }
      case 'GET /activities/search': {
        const q = (url.searchParams.get('q') ?? '').toLowerCase();
        const limitText = url.searchParams.get('limit');
        const limit = limitText === null ? LIMITS.searchLimitDefault : Number(limitText);
        if (!Number.isInteger(limit) || limit < LIMITS.searchLimitMin || limit > LIMITS.searchLimitMax) {
          return invalid('limit', 'must be an integer from 1 to 100');
        }
        const found = [...state.activities.values()]
          .filter((a) => a.activityName.toLowerCase().includes(q))
          .sort((a, b) => rank(a, q) - rank(b, q) || b.lastUsed - a.lastUsed)
          .slice(0, limit)
          .map(ref);
        return ok(found);
      }
      case 'POST /activities/start': {
        const byName = typeof body['name'] === 'string';
        const byID = typeof body['activityID'] === 'string';
        if (byName === byID) return invalid('name', 'give exactly one of name and activityID');
        let activity = byID ? state.activities.get(body['activityID'] as string) : findByName(body['name'] as string);
        let created = false;
        if (!activity && byName && body['createIfMissing'] === true) {
          activity = createActivity(body['name'] as string);
          created = true;
        }
        if (!activity) return { status: 404, body: problem('activity_not_found', 'no such activity') };
        if (state.running?.activity !== activity) {
          endRunning(now);
          state.running = { activity, startedAt: now };
        }
        activity.lastUsed = now;
        return ok({ ...ref(activity), created, startedAt: new Date(state.running!.startedAt).toISOString() });
      }
      case 'POST /activities/stop':
        return ok(endRunning(now));
      case 'POST /entries': {
        const byName = typeof body['name'] === 'string';
        const byID = typeof body['activityID'] === 'string';
        if (byName === byID) return invalid('name', 'give exactly one of name and activityID');
        const minutes = body['durationMinutes'];
        if (typeof minutes !== 'number' || !(minutes > 0) || minutes > LIMITS.durationMinutesMax) {
          return invalid('durationMinutes', 'must be a number greater than 0 and at most 1440');
        }
        let activity = byID ? state.activities.get(body['activityID'] as string) : findByName(body['name'] as string);
        let created = false;
        if (!activity && byName && body['createIfMissing'] === true) {
          activity = createActivity(body['name'] as string);
          created = true;
        }
        if (!activity) return { status: 404, body: problem('activity_not_found', 'no such activity') };
        const endedAt = typeof body['endedAt'] === 'string' ? Date.parse(body['endedAt']) : now;
        state.entrySeconds += minutes * 60;
        return {
          status: 201,
          body: {
            ok: true,
            result: {
              entryID: randomUUID(),
              activity: ref(activity),
              created,
              startedAt: new Date(endedAt - minutes * 60_000).toISOString(),
              endedAt: new Date(endedAt).toISOString(),
              durationMinutes: minutes,
              note: typeof body['note'] === 'string' ? body['note'] : null,
            },
          },
        };
      }
      case 'GET /report': {
        const day = /^\d{4}-\d{2}-\d{2}$/;
        const today = new Date(now).toISOString().slice(0, 10);
        const from = url.searchParams.get('from') ?? today;
        const to = url.searchParams.get('to') ?? today;
        const by = url.searchParams.get('by') ?? 'activity';
        if (!day.test(from)) return invalid('from', 'must be a date YYYY-MM-DD');
        if (!day.test(to)) return invalid('to', 'must be a date YYYY-MM-DD');
        if (to < from) return invalid('to', `must not be before from (${from})`);
        if (by !== 'activity' && by !== 'day' && by !== 'client' && by !== 'tag') return invalid('by', 'must be one of activity, day, client, tag');
        const billable = url.searchParams.get('billable');
        if (billable !== null && billable !== 'true' && billable !== 'false') return invalid('billable', 'must be true or false');
        // Nothing the fake logs is billable: billed time 0, no amount.
        const seconds = billable === 'true' ? 0 : Math.round(state.entrySeconds);
        const ledger = { billedSeconds: 0, amount: null, currency: null, amounts: [] };
        const rows =
          by === 'day'
            ? [{ date: from, seconds, ...ledger }]
            : seconds === 0
              ? []
              : by === 'client'
                ? [{ clientID: null, clientName: null, seconds, ...ledger }]
                : by === 'tag'
                  ? [{ tag: null, seconds, ...ledger }]
                  : [{ activityID: randomUUID(), activityName: 'Everything', seconds, ...ledger }];
        return ok({ from, to, timeZone: 'UTC', totalSeconds: seconds, overlapSeconds: 0, rows, amounts: [], targetSeconds: null, balanceSeconds: null });
      }
      case 'GET /suggestions': {
        const date = url.searchParams.get('date') ?? new Date(now).toISOString().slice(0, 10);
        const parsed = Date.parse(`${date}T00:00:00Z`);
        if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(parsed) || new Date(parsed).toISOString().slice(0, 10) !== date) return invalid('date', 'must be a date YYYY-MM-DD');
        return ok({ date, suggestions: suggestionsOf(date, now) });
      }
      case 'POST /suggestions/accept': {
        const id = body['id'];
        if (typeof id !== 'string' || id.trim() === '') return invalid('id', 'must be a non-empty string');
        const found = suggestionsOf(new Date(now).toISOString().slice(0, 10), now).find((s) => s.id === id.trim());
        if (!found) return { status: 404, body: problem('suggestion_not_found', `no suggestion ${id}`) };
        const name = body['activityName'];
        if (typeof name !== 'string' || name.trim() === '') return invalid('activityName', 'this suggestion has no label: give the activity to log it as');
        let activity = findByName(name);
        const created = !activity;
        activity ??= createActivity(name);
        state.suggestionAccepted = true;
        state.entrySeconds += found.seconds;
        const result = { entryID: randomUUID(), activity: ref(activity), created, startedAt: found.start, endedAt: found.end, durationMinutes: 60, note: 'from capture' };
        return { status: 201, body: { ok: true, result } };
      }
      case 'POST /branch-changed': {
        const branch = body['branch'];
        if (typeof branch !== 'string' || branch.trim() === '' || branch.length > LIMITS.branchMax) {
          return invalid('branch', 'must be a non-empty string of at most 255 characters');
        }
        const optional = (name: string): string | null => (typeof body[name] === 'string' ? (body[name] as string) : null);
        return ok({ promptID: randomUUID(), branch: branch.trim(), repo: optional('repo'), previousBranch: optional('previousBranch') });
      }
      default:
        return { status: 404, body: problem('route_not_found', 'no such route') };
    }
  }

  function findByName(name: string): Activity | undefined {
    const wanted = name.trim().normalize('NFC').toLowerCase();
    return [...state.activities.values()].find((a) => a.activityName.normalize('NFC').toLowerCase() === wanted);
  }

  function createActivity(name: string): Activity {
    const activity = { activityID: randomUUID(), activityName: name.trim(), lastUsed: Date.now() };
    state.activities.set(activity.activityID, activity);
    return activity;
  }

  function endRunning(now: number) {
    const r = state.running;
    if (!r) return null;
    state.running = null;
    const seconds = Math.floor((now - r.startedAt) / 1000);
    state.entrySeconds += seconds;
    return { ...ref(r.activity), startedAt: new Date(r.startedAt).toISOString(), endedAt: new Date(now).toISOString(), seconds };
  }

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const fake: FakeTock = {
    port,
    url: `http://127.0.0.1:${port}`,
    next: (...m) => void queue.push(...m),
    publish,
    endStreams,
    get openStreams() {
      return streams.size;
    },
    requests,
    closedPort: async () => {
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      const free = (probe.address() as AddressInfo).port;
      await new Promise((resolve) => probe.close(resolve));
      return free;
    },
    reset: () => {
      droppedNonces.clear();
      queue.length = 0;
      requests.length = 0;
      idempotent.clear();
      endStreams();
      events = [];
      state = freshState();
    },
    close: async () => {
      endStreams();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return fake;
}

function single(req: IncomingMessage, name: string): string | undefined {
  const value = req.headersDistinct[name];
  return value && value.length === 1 ? value[0] : undefined;
}

function send(res: ServerResponse, reply: Reply, signWith: string | undefined, nonce?: string): void {
  const body = Buffer.from(JSON.stringify(reply.body), 'utf8');
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    [HEADER.apiVersion]: '1',
    'cache-control': 'no-store',
    ...reply.headers,
  };
  if (signWith !== undefined && nonce !== undefined) {
    headers[HEADER.responseSignature] = hmac(signWith, ['TOCK-HMAC-SHA256-RESPONSE', nonce, String(reply.status), hex(body)].join('\n'));
  }
  res.writeHead(reply.status, headers).end(body);
}

const ok = (result: unknown): Reply => ({ status: 200, body: { ok: true, result } });
const problem = (code: string, error: string) => ({ ok: false, error, code });
const invalid = (field: string, message: string): Reply => ({
  status: 400,
  body: { ...problem('validation_failed', `${field}: ${message}`), details: [{ field, message }] },
});
const ref = (a: Activity) => ({ activityID: a.activityID, activityName: a.activityName });
const rank = (a: Activity, q: string) => {
  const name = a.activityName.toLowerCase();
  return name === q ? 0 : name.startsWith(q) ? 1 : name.split(/\s+/).some((w) => w.startsWith(q)) ? 2 : 3;
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { token: { type: 'string' }, port: { type: 'string' } } });
  if (!values.token) throw new Error('usage: node fake-tock.ts --token T [--port P]');
  const fake = await startFakeTock({ token: values.token, port: Number(values.port ?? 0) });
  console.log(JSON.stringify({ port: fake.port }));
  const stop = () => void fake.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
