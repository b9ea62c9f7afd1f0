/**
 * The browser in the store (docs/desktop.md "The browser"): heartbeats of type `domain` or
 * `url`, as the WakaTime browser extension sends them (`time` a numeric string, placeholders,
 * `plugin` naming the browser), kept as the domain only — before anything is written — and
 * read back as `browser` spans; exclusions match the domain, rules match it as `entity`.
 */

import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { test } from 'node:test';
import {
  browserFromUserAgent,
  browserSpans,
  domainOfEntity,
  editorSpans,
  listHeartbeats,
  recordHeartbeats,
  setCaptureSetting,
  testRule,
  timeline,
} from '../src/index.ts';
import { fixture, sequentialIds } from './support.ts';

const ZONE = 'UTC';
const DAY = '2026-11-20';
const at = (hhmm: string): number => Date.parse(`${DAY}T${hhmm}:00Z`);
const NOW = at('18:00');
const MIN = 60_000;
/** What browser-wakatime 4.1.1 sends as `plugin`, and what Firefox puts in `User-Agent`. */
const CHROME_PLUGIN = 'Chrome/131.0.0.0 linux chrome-wakatime/4.1.1';
const FIREFOX_PLUGIN = 'Firefox/133.0 linux firefox-wakatime/4.1.1';
const FIREFOX_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SECRET_PATH = '/reset-password/7f3a9c2e-secret-token';

/** A heartbeat as browser-wakatime's buildHeartbeat makes it (src/core/WakaTimeCore.ts). */
function extensionHeartbeat(ms: number, entity: string, plugin = CHROME_PLUGIN, type: 'url' | 'domain' = 'url'): Record<string, unknown> {
  const text = String(ms);
  return {
    branch: '<<LAST_BRANCH>>',
    entity,
    id: 'e0c1b0a4-2f4b-4c55-9d43-1b2a3c4d5e6f',
    project: '<<LAST_PROJECT>>',
    time: `${text.slice(0, -3)}.${text.slice(-3)}`,
    type,
    plugin,
  };
}

function send(f: ReturnType<typeof fixture>, items: unknown[], userAgent = FIREFOX_UA) {
  return recordHeartbeats(f.store, items, { userAgent }, { nowMs: NOW, newId: sequentialIds() });
}

test('an extension heartbeat is stored with its domain only: string time, placeholders as absent, the browser from plugin', (t) => {
  const f = fixture(t);
  const out = send(f, [extensionHeartbeat(at('09:00') + 123, `https://user:pw@accounts.example.com:8443${SECRET_PATH}?code=42#frag`)]);
  assert.deepEqual(out, [{ data: { id: '00000000-0000-4000-8000-000000000001', time: (at('09:00') + 123) / 1000 } }]);
  const [stored] = listHeartbeats(f.store, 0, NOW);
  assert.equal(stored?.entity, 'accounts.example.com');
  assert.equal(stored?.type, 'url');
  assert.equal(stored?.project, null, '<<LAST_PROJECT>> is absent');
  assert.equal(stored?.branch, null, '<<LAST_BRANCH>> is absent');
  assert.equal(stored?.editor, 'chrome');
  assert.equal(stored?.timeMs, at('09:00') + 123);
  // Nothing of the URL but its host is in the database or its write-ahead log, open or closed.
  const noUrl = (): void => {
    let read = 0;
    for (const file of [f.path, `${f.path}-wal`]) {
      if (!existsSync(file)) continue;
      const bytes = readFileSync(file);
      read++;
      assert.equal(bytes.includes('reset-password'), false, `${file} holds the URL's path`);
      assert.equal(bytes.includes('code=42'), false, `${file} holds the URL's query`);
      assert.equal(bytes.includes('user:pw'), false, `${file} holds the URL's user`);
    }
    assert.ok(read > 0);
  };
  assert.ok(existsSync(`${f.path}-wal`));
  noUrl();
  f.store.close();
  noUrl();
});

test('the domain of an entity: a URL, a domain heartbeat\'s scheme://host, a bare host; no host refuses', (t) => {
  assert.equal(domainOfEntity('https://github.com/tock/tock/pull/7?diff=split'), 'github.com');
  assert.equal(domainOfEntity('https://github.com'), 'github.com');
  assert.equal(domainOfEntity('HTTP://Example.COM.:80/x'), 'example.com');
  assert.equal(domainOfEntity('docs.example.org/guide'), 'docs.example.org');
  assert.equal(domainOfEntity('http://[::1]:3000/'), '[::1]');
  assert.equal(domainOfEntity('file:///home/ana/secret.pdf'), null);
  assert.equal(domainOfEntity('about:blank'), null);
  assert.equal(domainOfEntity('chrome-extension://abc/popup.html'), null);
  const f = fixture(t);
  const [refused] = send(f, [extensionHeartbeat(at('09:00'), 'file:///home/ana/secret.pdf')]);
  assert.match((refused as { error: string }).error, /must name a web address/);
  assert.doesNotMatch((refused as { error: string }).error, /secret/);
  assert.equal(listHeartbeats(f.store, 0, NOW).length, 0);
});

test('the browser from a User-Agent: the extension\'s plugin, else the browser\'s own product', () => {
  assert.equal(browserFromUserAgent(CHROME_PLUGIN), 'chrome');
  assert.equal(browserFromUserAgent(FIREFOX_PLUGIN), 'firefox');
  assert.equal(
    browserFromUserAgent('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0 linux edge-wakatime/4.1.1'),
    'edge',
  );
  assert.equal(browserFromUserAgent(FIREFOX_UA), 'firefox');
  assert.equal(browserFromUserAgent('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0'), 'opera');
  assert.equal(browserFromUserAgent('wakatime/v1.90.0 vscode/1.96.0 vscode-wakatime/25.0.0'), null);
  assert.equal(browserFromUserAgent(undefined), null);
});

test('browser spans: one per browser and domain, ending where the next page begins; never editor spans', (t) => {
  const f = fixture(t);
  const out = send(f, [
    extensionHeartbeat(at('09:00'), `https://github.com/tock${SECRET_PATH}`),
    extensionHeartbeat(at('09:04'), 'https://github.com/tock/issues'),
    extensionHeartbeat(at('09:05'), 'https://docs.example.org', FIREFOX_PLUGIN, 'domain'),
    extensionHeartbeat(at('10:00'), 'https://github.com/x', FIREFOX_PLUGIN),
  ]);
  assert.ok(out.every((o) => 'data' in o));
  assert.deepEqual(editorSpans(f.store, at('00:00'), NOW, 15 * MIN), []);
  assert.deepEqual(
    browserSpans(f.store, at('00:00'), NOW, 15 * MIN).map((s) => [s.startMs, (s.endMs - s.startMs) / MIN, s.app, s.entity]),
    [
      [at('09:00'), 5, 'chrome', 'github.com'],
      [at('09:05'), 2, 'firefox', 'docs.example.org'],
      [at('10:00'), 2, 'firefox', 'github.com'],
    ],
  );
  const day = timeline(f.store, { day: DAY, timeZone: ZONE, nowMs: NOW });
  assert.deepEqual(
    day.spans.map((s) => [s.source, s.app, s.entity, s.title, s.project, s.branch]),
    [
      ['browser', 'chrome', 'github.com', null, null, null],
      ['browser', 'firefox', 'docs.example.org', null, null, null],
      ['browser', 'firefox', 'github.com', null, null, null],
    ],
  );
});

test('exclusions match a browser span\'s domain and its browser: the span is excluded, with neither', (t) => {
  const f = fixture(t);
  send(f, [
    extensionHeartbeat(at('09:00'), 'https://online.mybank.example/accounts'),
    extensionHeartbeat(at('09:05'), 'https://github.com/tock', FIREFOX_PLUGIN),
    extensionHeartbeat(at('09:10'), 'https://news.example.com/a'),
  ]);
  setCaptureSetting(f.store.settings, 'exclude', ['*bank*', 'firef?x']);
  const day = timeline(f.store, { day: DAY, timeZone: ZONE, nowMs: NOW });
  assert.deepEqual(
    day.spans.map((s) => [s.source, s.app, s.entity]),
    [
      ['excluded', null, null],
      ['excluded', null, null],
      ['browser', 'chrome', 'news.example.com'],
    ],
  );
});

test('a rule matches a browser span\'s domain as entity', (t) => {
  const f = fixture(t, { now: new Date(NOW).toISOString() });
  send(f, [extensionHeartbeat(at('09:00'), 'https://github.com/tock/pull/1'), extensionHeartbeat(at('09:10'), 'https://github.com/tock/pull/2')]);
  const result = testRule(f.store, { match: { entity: 'github.com', source: 'browser' }, activity: 'Reviews' }, 1, { timeZone: ZONE, nowMs: NOW });
  assert.equal(result.seconds, 12 * 60);
  assert.deepEqual(result.sources, [{ source: 'browser', app: 'chrome', title: null, project: null, branch: null, seconds: 12 * 60 }]);
  const none = testRule(f.store, { match: { entity: '*pull*' }, activity: 'Reviews' }, 1, { timeZone: ZONE, nowMs: NOW });
  assert.equal(none.seconds, 0, 'the path is not there to match');
});

test('a page excluded when it comes is stored with neither domain nor browser: the bytes hold no trace of it', (t) => {
  const f = fixture(t);
  setCaptureSetting(f.store.settings, 'exclude', ['*mybank*']);
  const out = send(f, [extensionHeartbeat(at('09:00'), 'https://online.mybank.example/accounts/42'), extensionHeartbeat(at('09:10'), 'https://news.example.com/a')]);
  assert.ok(out.every((o) => 'data' in o));
  const stored = listHeartbeats(f.store, 0, NOW);
  assert.deepEqual(
    stored.map((h) => [h.entity, h.editor, h.type]),
    [
      ['', null, 'url'],
      ['news.example.com', 'chrome', 'url'],
    ],
  );
  // Even with the exclusion taken away, the span stays excluded: nothing was kept to show.
  setCaptureSetting(f.store.settings, 'exclude', []);
  const day = timeline(f.store, { day: DAY, timeZone: ZONE, nowMs: NOW });
  assert.deepEqual(
    day.spans.map((s) => [s.source, s.app, s.entity]),
    [
      ['excluded', null, null],
      ['browser', 'chrome', 'news.example.com'],
    ],
  );
  for (const file of [f.path, `${f.path}-wal`]) {
    // The glob itself is a setting in the store; the page's domain is not.
    if (existsSync(file)) assert.equal(readFileSync(file).includes('online.mybank.example'), false, `${file} holds the excluded domain`);
  }
});
