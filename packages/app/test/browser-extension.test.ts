/**
 * The WakaTime browser extension feeding a real `tock app` (docs/integrations.md "The
 * browser"), end to end: a request shaped as browser-wakatime 4.1.1 sends it
 * (src/core/WakaTimeCore.ts: POST heartbeats.bulk?api_key=KEY, a string body labelled
 * text/plain, the extension's Origin, `time` a numeric string, `<<LAST_PROJECT>>` and
 * `<<LAST_BRANCH>>` placeholders, `plugin` naming the browser) becomes a `browser` span with
 * the domain only; the URL's path is in neither `tock.db` nor `tock.db-wal`; a web page's
 * Origin is still refused; the key is in no request list and no log.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { homePaths } from '../src/home.ts';
import { freePort } from './ui-support/harness.ts';
import { appEnv, spawnApp, tock } from './support/app-process.ts';

const BULK = '/wakatime/api/v1/users/current/heartbeats.bulk';
const EXTENSION = 'chrome-extension://jnbbnacmeggbgdjgaoojpmhdlkkpblgi';
const CHROME_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** A path that must never be stored: it names a page, and may carry a secret. */
const SECRET = 'reset-password/c0ffee-77aa-secret';

/** One POST as the extension's fetch sends it. */
function post(port: number, target: string, body: string, headers: Record<string, string>): Promise<{ status: number; text: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path: target, headers: { host: `127.0.0.1:${port}`, 'content-length': String(Buffer.byteLength(body)), ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** browser-wakatime's getCurrentTime: seconds with three decimals, as a string. */
const extensionTime = (ms: number): string => {
  const text = String(Math.round(ms));
  return `${text.slice(0, -3)}.${text.slice(-3)}`;
};

describe('the WakaTime browser extension feeds a real app', () => {
  it('its heartbeats become browser spans of the domain only; the URL is in neither tock.db nor tock.db-wal; a page Origin is refused; the key is never listed', async () => {
    const env = appEnv();
    const app = await spawnApp(env);
    after(() => app.child.kill('SIGKILL'));
    assert.equal((await tock(['editors', 'enable'], env)).code, 0);
    const port = await freePort();
    assert.equal((await tock(['listener', 'on', '--port', String(port)], env)).code, 0);
    const key = (await tock(['editors', 'key'], env)).stdout.trim();

    const now = Date.now();
    const beats = [
      { at: now - 120_000, entity: `https://github.com/tock/tock/${SECRET}?token=abc123` },
      { at: now - 60_000, entity: 'https://github.com/tock/tock/pull/7' },
    ].map(({ at, entity }) => ({
      branch: '<<LAST_BRANCH>>',
      entity,
      id: '0b6e9a1e-8a4c-4e0d-9b1b-1c2d3e4f5a6b',
      project: '<<LAST_PROJECT>>',
      time: extensionTime(at),
      type: 'url',
      plugin: 'Chrome/131.0.0.0 linux chrome-wakatime/4.1.1',
    }));
    const fromExtension = {
      origin: EXTENSION,
      'content-type': 'text/plain;charset=UTF-8',
      'user-agent': CHROME_UA,
      'sec-fetch-site': 'none',
      'sec-fetch-mode': 'cors',
    };
    const answer = await post(port, `${BULK}?api_key=${key}`, JSON.stringify(beats), fromExtension);
    assert.equal(answer.status, 201, answer.text);
    assert.equal(answer.headers['access-control-allow-origin'], EXTENSION);
    const responses = (JSON.parse(answer.text) as { responses: [unknown, number][] }).responses;
    assert.deepEqual(
      responses.map(([, status]) => status),
      [201, 201],
    );

    // A web page cannot: its own Origin is refused, key or not, and nothing is stored.
    const page = await post(port, `${BULK}?api_key=${key}`, JSON.stringify([{ ...beats[0], entity: 'https://evil.example/planted' }]), { ...fromExtension, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    assert.equal(page.status, 403);
    assert.equal(page.headers['access-control-allow-origin'], undefined);

    const timeline = await tock(['timeline', '--json'], env);
    assert.equal(timeline.code, 0, timeline.stderr);
    const spans = (JSON.parse(timeline.stdout) as { spans: { source: string; app: string | null; entity: string | null; title: string | null; project: string | null; branch: string | null }[] }).spans;
    assert.deepEqual(
      spans.map((s) => [s.source, s.app, s.entity, s.title, s.project, s.branch]),
      [['browser', 'chrome', 'github.com', null, null, null]],
    );

    // The key: in no request list and no answer.
    const requests = await tock(['requests', '--json'], env);
    assert.equal(requests.code, 0, requests.stderr);
    assert.ok(requests.stdout.includes(BULK));
    assert.equal(requests.stdout.includes(key), false, 'tock requests shows the key');
    assert.equal(requests.stdout.includes('api_key'), false, 'tock requests shows the query');

    // kill -9: the write-ahead log stays as it was written; neither file holds the URL.
    app.child.kill('SIGKILL');
    await app.exited;
    const database = homePaths(env.TOCK_HOME as string).database;
    assert.ok(existsSync(`${database}-wal`), 'the write-ahead log is there to read');
    for (const file of [database, `${database}-wal`]) {
      const bytes = readFileSync(file);
      for (const piece of [SECRET, 'reset-password', 'token=abc123', '/tock/tock/pull/7', 'evil.example']) {
        assert.equal(bytes.includes(piece), false, `${file} holds "${piece}"`);
      }
    }
    assert.ok(readFileSync(`${database}-wal`).includes('github.com') || readFileSync(database).includes('github.com'), 'the domain is stored');
    assert.equal(app.output().includes(key), false, 'the app logged the key');
    assert.equal(app.output().includes(SECRET), false, 'the app logged the URL');
  });
});
