/**
 * The extension speaks VS Code's display language (`vscode.env.language`), English when Tock
 * lacks it (docs/i18n.md): in German against a real app — the status bar, the picker, Stop's
 * message and an error line — and, in the pseudo-locale `en-XA`, every status bar text of every
 * state comes from the catalog.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { catalogProblems } from '@tock/i18n';
import { TockClient } from '@tock/client';
import type { ActivityItem } from '../src/activity-picker.ts';
import { activateWith } from '../src/activation.ts';
import { TOKEN_SECRET_KEY } from '../src/connection.ts';
import { EXTENSION_CATALOGS, extensionLocale, extensionMessages } from '../src/i18n/index.ts';
import { viewStatus, type StatusState } from '../src/status-view.ts';
import { deactivate, fakeEditor, ManualScheduler, type FakeEditor, type FakeStatusItem } from './support/fake-editor.ts';
import { startRealApp, type RealApp } from './support/real-app.ts';

const SEARCH_PAUSE_MS = 150;

describe('the extension in German, against a real app', () => {
  let app: RealApp;
  let editor: FakeEditor;
  let scheduler: ManualScheduler;
  let item: FakeStatusItem;

  before(async () => {
    app = await startRealApp();
    const client = new TockClient({ token: app.token, port: app.port });
    await client.startActivity('Writing docs', { createIfMissing: true });
    await client.stopActivity();
    editor = { ...fakeEditor(), language: 'de' } as FakeEditor;
    editor.workspace.settings.set('tock.port', app.port);
    editor.secrets.values.set(TOKEN_SECRET_KEY, app.token);
    scheduler = new ManualScheduler(Date.now());
    await activateWith(editor, editor.context, { env: {}, scheduler });
    item = editor.window.statusItems[0] as FakeStatusItem;
  });
  after(async () => {
    deactivate(editor);
    await app?.stop();
  });

  it('shows the status bar in German', async () => {
    const text = await item.waitForText(/Keine Zeiterfassung/);
    assert.match(text, /^\$\(watch\) Keine Zeiterfassung · \d+:\d\d$/);
    assert.match(String(item.tooltip), /^Tock: keine Zeiterfassung – heute \d+:\d\d\nKlicken Sie, um eine Tätigkeit zu starten\.$/);
  });

  it('offers the picker in German, creates, and says Stop in German', async () => {
    const n = editor.window.quickPicks.length;
    const done = editor.commands.executeCommand('tock.startActivity');
    const pick = await editor.window.quickPick<ActivityItem>(n);
    assert.equal(pick.title, 'Tock: Tätigkeit starten');
    assert.equal(pick.placeholder, 'Tippen Sie, um Tätigkeiten zu suchen, oder einen neuen Namen, um sie anzulegen');
    await pick.waitForItems((items) => items.length > 0);
    pick.type('Übersetzen');
    scheduler.advance(SEARCH_PAUSE_MS);
    const rows = await pick.waitForItems((items) => items.some((i) => i.choice?.kind === 'create'));
    const create = rows.find((i) => i.choice?.kind === 'create');
    assert.equal(create?.label, '$(add) „Übersetzen“ anlegen');
    assert.equal(create?.description, 'neue Tätigkeit');
    pick.accept(create);
    await done;
    await item.waitForText(/Übersetzen/);
    assert.match(String(item.tooltip), /^Tock: „Übersetzen“ wird erfasst seit \d\d:\d\d – heute/);

    const shown = editor.window.messages.length;
    await editor.commands.executeCommand('tock.stop');
    const message = await editor.window.message(shown);
    assert.deepEqual(message, { level: 'info', message: 'Tock: „Übersetzen“ nach weniger als einer Minute angehalten', actions: [] });
  });

  it('says an offline failure with the German action', async () => {
    const state: StatusState = { kind: 'offline', explanation: { offline: 'not-running', message: 'Tock is not running: start it with `tock app`', remedy: 'show-message' } };
    const view = viewStatus(state, 0, extensionMessages('de'));
    assert.equal(view.text, '$(debug-disconnect) Tock: offline');
    assert.equal(view.tooltip, 'Tock: offline – Tock is not running: start it with `tock app`\nKlicken Sie, um zu sehen, was zu tun ist.');
  });
});

describe('the extension’s catalogs', () => {
  it('parse as ICU in every language and use the same arguments as English', () => {
    assert.deepEqual(catalogProblems(EXTENSION_CATALOGS), []);
  });

  it('translate the manifest (package.nls.*.json) in every language, every placeholder filled', () => {
    const read = (name: string) => JSON.parse(readFileSync(new URL(`../${name}`, import.meta.url), 'utf8')) as Record<string, string>;
    const keys = Object.keys(read('package.nls.json')).sort();
    const used = [...readFileSync(new URL('../package.json', import.meta.url), 'utf8').matchAll(/"%([\w.]+)%"/g)].map((m) => m[1]).sort();
    assert.deepEqual([...new Set(used)], keys, 'package.json uses exactly the keys package.nls.json has');
    for (const language of ['de', 'fr', 'es', 'ja']) {
      const translated = read(`package.nls.${language}.json`);
      assert.deepEqual(Object.keys(translated).sort(), keys, language);
      for (const key of keys) assert.ok((translated[key] ?? '').trim() !== '', `${language} ${key}`);
    }
  });

  it('follow VS Code’s display language, English when Tock lacks it', () => {
    assert.equal(extensionLocale('de'), 'de');
    assert.equal(extensionLocale('fr-ca'), 'fr');
    assert.equal(extensionLocale('ja'), 'ja');
    assert.equal(extensionLocale('pt-br'), 'en');
    assert.equal(extensionLocale(undefined), 'en');
  });

  it('leave no status bar text outside the catalog (en-XA), in every state', () => {
    const xa = extensionMessages('en-XA');
    const status = { isTracking: true, isOnBreak: false, todaySeconds: 3600, since: '2026-11-23T09:00:00Z', currentActivity: { activityID: 'a', activityName: 'Mail' } };
    const states: StatusState[] = [
      { kind: 'connecting' },
      { kind: 'offline', explanation: { offline: 'not-running', message: 'REASON', remedy: 'set-token' } },
      { kind: 'status', status: { ...status, isTracking: false, currentActivity: null }, receivedAtMs: 0 } as StatusState,
      { kind: 'status', status, receivedAtMs: 0 } as StatusState,
      { kind: 'status', status: { ...status, isOnBreak: true }, receivedAtMs: 0 } as StatusState,
    ];
    for (const state of states) {
      const view = viewStatus(state, 0, xa);
      for (const text of [view.text, view.tooltip, view.accessibilityLabel]) {
        assert.match(text, /^\[(\$\([a-z-]+\) )?.*\]$/s, text);
        assert.doesNotMatch(text.replace(/Mail|REASON|Tock/g, ''), /\b(tracking|today|Click|offline|connecting|break)\b/i, text);
      }
    }
  });
});
