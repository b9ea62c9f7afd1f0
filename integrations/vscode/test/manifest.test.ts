/**
 * package.json is the extension's manifest: every command it contributes is registered by
 * activation and every registered command is contributed; the settings the code reads are
 * declared (user settings only); the bundle it names is what build.ts writes.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { activateWith, CLOCK_SETTING, REPORT_BRANCHES_SETTING, SETTINGS_SECTION } from '../src/activation.ts';
import { COMMANDS } from '../src/commands.ts';
import { PORT_SETTING } from '../src/connection.ts';
import { STATUS_BAR_CLICK_COMMAND } from '../src/status-bar.ts';
import { deactivate, fakeEditor, ManualScheduler } from './support/fake-editor.ts';

interface Manifest {
  name: string;
  publisher: string;
  main: string;
  activationEvents: string[];
  contributes: {
    commands: { command: string; title: string; category: string }[];
    menus: { commandPalette: { command: string; when: string }[] };
    configuration: { properties: Record<string, { scope?: string }> };
  };
}

/** The manifest as VS Code shows it in English: `%key%` placeholders filled from package.nls.json. */
const english = JSON.parse(readFileSync(new URL('../package.nls.json', import.meta.url), 'utf8')) as Record<string, string>;
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'), (_key, value: unknown) =>
  typeof value === 'string' && /^%[\w.]+%$/.test(value) ? (english[value.slice(1, -1)] ?? value) : value,
) as Manifest;

describe('the manifest (package.json)', () => {
  it('contributes exactly the commands activation registers, titled as the palette shows them', async () => {
    const editor = fakeEditor();
    await activateWith(editor, editor.context, { env: {}, scheduler: new ManualScheduler(0) });
    try {
      assert.deepEqual([...editor.commands.registered.keys()].sort(), manifest.contributes.commands.map((c) => c.command).sort());
      const titles = Object.fromEntries(manifest.contributes.commands.map((c) => [c.command, `${c.category}: ${c.title}`]));
      assert.equal(titles[COMMANDS.startActivity], 'Tock: Start Activity…');
      assert.equal(titles[COMMANDS.stop], 'Tock: Stop');
      assert.equal(titles[COMMANDS.logTime], 'Tock: Log Time…');
      assert.equal(titles[COMMANDS.setToken], 'Tock: Set Token');
      assert.deepEqual(manifest.contributes.menus.commandPalette, [{ command: STATUS_BAR_CLICK_COMMAND, when: 'false' }]);
    } finally {
      deactivate(editor);
    }
    assert.equal(editor.commands.registered.size, 0, 'deactivation unregisters every command');
    assert.equal(editor.window.statusItems[0]?.disposed, true, 'and removes the status bar item');
  });

  it('declares the settings the code reads, as user settings only', () => {
    const properties = manifest.contributes.configuration.properties;
    for (const key of [PORT_SETTING, REPORT_BRANCHES_SETTING, CLOCK_SETTING]) {
      assert.equal(properties[`${SETTINGS_SECTION}.${key}`]?.scope, 'application', `${SETTINGS_SECTION}.${key}`);
    }
    assert.equal(Object.keys(properties).length, 3);
    // The clock's values are the ones the status view reads (clockChoice), the app's clockFormat's.
    const clock = properties[`${SETTINGS_SECTION}.${CLOCK_SETTING}`] as { enum?: string[]; default?: string };
    assert.deepEqual([clock.enum, clock.default], [['system', '24h', '12h'], 'system']);
  });

  it('names the bundle build.ts writes, a neutral publisher, and starts after the editor', () => {
    assert.equal(manifest.name, 'tock-vscode');
    assert.equal(manifest.publisher, 'tock');
    assert.equal(manifest.main, './dist/extension.cjs');
    assert.match(readFileSync(new URL('../build.ts', import.meta.url), 'utf8'), /outfile: join\(here, 'dist\/extension\.cjs'\)/);
    assert.deepEqual(manifest.activationEvents, ['onStartupFinished']);
  });
});
