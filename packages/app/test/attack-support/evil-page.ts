/**
 * The attacker's web page for the browser family (docs/security.md, family 3), served by a
 * plain node:http server on another loopback port: another origin, as any site the user visits
 * would be. `window.attack(listenerPort, uiPort, rounds)` fires every kind of request a page
 * can make without the user's help at the listener (and at the window's server), and reports
 * what it was able to read.
 */
import { createServer, type Server } from 'node:http';

/** What the page reports. */
export interface PageReport {
  /** Requests the page started. */
  sent: number;
  /** Kind of request → how many times it was tried. */
  kinds: Record<string, number>;
  /** Anything the page could read back: status codes, bodies, headers, frames. Must stay empty. */
  readable: string[];
}

function page(): string {
  // Runs in Chromium; kept as plain JS text so that nothing of the test's code reaches the page.
  return `<!doctype html><meta charset="utf-8"><title>totally harmless</title><body>
<script>
window.attack = async (port, uiPort, rounds) => {
  const L = 'http://127.0.0.1:' + port;
  const UI = 'http://127.0.0.1:' + uiPort;
  const report = { sent: 0, kinds: {}, readable: [] };
  const tried = (kind) => { report.sent++; report.kinds[kind] = (report.kinds[kind] || 0) + 1; };
  const readable = (what) => report.readable.push(what);
  const settle = (p, ms = 3000) => Promise.race([p, new Promise((r) => setTimeout(r, ms))]);
  const auth = { 'X-Tock-Timestamp': String(Math.floor(Date.now() / 1000)), 'X-Tock-Nonce': 'AAAAAAAAAAAAAAAAAAAAAA',
    'X-Tock-Signature': 'v1=' + '0'.repeat(64) };
  const json = (o) => JSON.stringify(o);

  async function tryFetch(kind, url, init) {
    tried(kind);
    try {
      const res = await fetch(url, init);
      // An opaque answer (no-cors) has status 0, no headers and no body: nothing to read.
      const text = await res.text().catch(() => '');
      const headers = [...res.headers.keys()];
      if (res.type !== 'opaque' || res.status !== 0 || text !== '' || headers.length > 0) {
        readable(kind + ': ' + res.type + ' ' + res.status + ' ' + text.slice(0, 80) + ' [' + headers.join(',') + ']');
      }
    } catch { /* refused by CORS or the network: nothing readable */ }
  }

  function tryForm(kind, action, enctype, fields) {
    tried(kind);
    return new Promise((resolve) => {
      const frame = document.createElement('iframe');
      frame.name = 'f' + report.sent;
      document.body.appendChild(frame);
      const form = document.createElement('form');
      form.method = 'POST'; form.action = action; form.enctype = enctype; form.target = frame.name;
      for (const [name, value] of fields) {
        const input = document.createElement('input'); input.type = 'hidden'; input.name = name; input.value = value; form.appendChild(input);
      }
      document.body.appendChild(form);
      const done = () => {
        try {
          const doc = frame.contentDocument;
          if (doc && doc.body && doc.body.textContent) readable(kind + ': frame text ' + doc.body.textContent.slice(0, 80));
        } catch { /* cross-origin frame: unreadable */ }
        frame.remove(); form.remove(); resolve();
      };
      frame.addEventListener('load', done, { once: true });
      setTimeout(done, 3000);
      form.submit();
    });
  }

  function tryElement(kind, tag, url) {
    tried(kind);
    return new Promise((resolve) => {
      const el = document.createElement(tag);
      const done = () => {
        if (tag === 'img' && (el.naturalWidth > 0 || el.naturalHeight > 0)) readable(kind + ': image of ' + el.naturalWidth + 'x' + el.naturalHeight);
        el.remove(); resolve();
      };
      el.addEventListener('load', done, { once: true });
      el.addEventListener('error', done, { once: true });
      setTimeout(done, 3000);
      el.src = url;
      document.body.appendChild(el);
    });
  }

  function tryXhr(kind, method, url, body) {
    tried(kind);
    return new Promise((resolve) => {
      const xhr = new XMLHttpRequest();
      xhr.open(method, url);
      xhr.withCredentials = true;
      xhr.onload = () => { readable(kind + ': xhr ' + xhr.status + ' ' + xhr.responseText.slice(0, 80)); resolve(); };
      xhr.onerror = () => resolve();
      setTimeout(resolve, 3000);
      xhr.send(body);
    });
  }

  function tryWebSocket(kind, url) {
    tried(kind);
    return new Promise((resolve) => {
      const ws = new WebSocket(url);
      ws.onopen = () => { readable(kind + ': websocket opened'); ws.close(); resolve(); };
      ws.onmessage = (m) => readable(kind + ': websocket message ' + String(m.data).slice(0, 80));
      ws.onerror = () => resolve();
      setTimeout(resolve, 3000);
    });
  }

  const start = json({ name: 'Pwned by a web page', createIfMissing: true });
  const entry = json({ name: 'Pwned by a web page', durationMinutes: 600, createIfMissing: true });
  const branch = json({ branch: 'pwned' });
  // text/plain form with a JSON-looking body: name '{"name":"Pwned…","x":"' value '"}'
  const plainJson = [['{"name":"Pwned by a web page","createIfMissing":true,"x":"', '"}']];

  for (let i = 0; i < rounds; i++) {
    const batch = [
      tryFetch('fetch GET /status (cors)', L + '/status'),
      tryFetch('fetch GET /healthcheck (cors, credentials)', L + '/healthcheck', { credentials: 'include' }),
      tryFetch('fetch GET /current (no-cors)', L + '/current', { mode: 'no-cors' }),
      tryFetch('fetch POST /activities/start (simple, text/plain)', L + '/activities/start', { method: 'POST', body: start, headers: { 'content-type': 'text/plain' } }),
      tryFetch('fetch POST /entries (no-cors)', L + '/entries', { method: 'POST', mode: 'no-cors', body: entry }),
      tryFetch('fetch POST /branch-changed (no-cors, urlencoded)', L + '/branch-changed', { method: 'POST', mode: 'no-cors', body: new URLSearchParams({ branch: 'pwned' }) }),
      tryFetch('fetch POST /activities/start (preflighted: application/json)', L + '/activities/start', { method: 'POST', body: start, headers: { 'content-type': 'application/json' } }),
      tryFetch('fetch POST /entries (preflighted: X-Tock-* headers)', L + '/entries', { method: 'POST', body: entry, headers: { ...auth, 'content-type': 'application/json' } }),
      tryFetch('fetch GET /status (preflighted: X-Tock-* headers)', L + '/status', { headers: auth }),
      tryFetch('fetch PUT /activities/stop (preflighted method)', L + '/activities/stop', { method: 'PUT' }),
      tryForm('form POST /activities/start (urlencoded)', L + '/activities/start', 'application/x-www-form-urlencoded', [['name', 'Pwned by a web page'], ['createIfMissing', 'true']]),
      tryForm('form POST /entries (multipart)', L + '/entries', 'multipart/form-data', [['name', 'Pwned by a web page'], ['durationMinutes', '600']]),
      tryForm('form POST /activities/start (text/plain, JSON-looking)', L + '/activities/start', 'text/plain', plainJson),
      tryForm('form POST /branch-changed (text/plain, JSON-looking)', L + '/branch-changed', 'text/plain', [['{"branch":"pwned","x":"', '"}']]),
      tryElement('img /status', 'img', L + '/status?i=' + i),
      tryElement('script /current', 'script', L + '/current?i=' + i),
      tryElement('iframe /status', 'iframe', L + '/status?f=' + i),
      tryXhr('xhr POST /activities/stop (credentials)', 'POST', L + '/activities/stop', '{}'),
      tryWebSocket('websocket /status', 'ws://127.0.0.1:' + port + '/status'),
      // The window's own server is a target too: CSRF against its JSON API.
      tryFetch('fetch POST ui /api/token/reveal (no-cors)', UI + '/api/token/reveal', { method: 'POST', mode: 'no-cors' }),
      tryFetch('fetch GET ui /api/state (cors, credentials)', UI + '/api/state', { credentials: 'include' }),
      tryForm('form POST ui /api/listener (text/plain, JSON-looking)', UI + '/api/listener', 'text/plain', [['{"enabled":false,"x":"', '"}']]),
      tryForm('form POST ui /api/start (urlencoded)', UI + '/api/start', 'application/x-www-form-urlencoded', [['name', 'Pwned by a web page']]),
    ];
    if (typeof navigator.sendBeacon === 'function') {
      tried('sendBeacon POST /activities/start');
      navigator.sendBeacon(L + '/activities/start', start);
    }
    await settle(Promise.all(batch), 10000);
  }
  return report;
};
</script>`;
}

/** Serves the page on 127.0.0.1 at a free port (another origin than the listener and the window). */
export async function startEvilSite(): Promise<{ url: string; close(): Promise<void> }> {
  const body = page();
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://localhost:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
