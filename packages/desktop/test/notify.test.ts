/**
 * Notifications pass the person's text as data (docs/desktop.md "Notifications", docs/security.md
 * "Notifications"): names with quotes of every kind, `$`, backticks and `;` reach osascript as
 * argv elements read by `on run argv`, PowerShell as environment values read with `$env:`, and
 * busctl as typed argv elements — never inside script source. macOS and Windows cannot run
 * here, so the builders are checked against the interfaces they rely on: osascript's
 * arguments after the script go to the `run` handler; `-EncodedCommand` is base64 of UTF-16LE.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  freedesktopNotifyArgv,
  MAC_NOTIFY_SCRIPT,
  macNotifyCommand,
  notificationText,
  notifierFor,
  WINDOWS_NOTIFY_ENV,
  WINDOWS_TOAST_SCRIPT,
  windowsToastCommand,
} from '../src/notify.ts';
import type { RunCommand } from '../src/run-command.ts';

/** Names that end a string literal or run code in AppleScript, PowerShell or a shell. */
const HOSTILE_NAMES = [
  "O'Brien",
  'say "hi"',
  'back`tick',
  '$env:USERPROFILE $(calc)',
  'a; rm -rf ~',
  ...['\u2018', '\u2019', '\u201A', '\u201B', '\u201C', '\u201D', '\u201E', '\u201F'].map((q) => `x${q}); Start-Process calc; (${q}`),
  "it\u2019s'\"`$;\u201C",
  '" & (do shell script "touch /tmp/owned") & "',
  "'); [Diagnostics.Process]::Start('calc'); ('",
  '</text></binding><script/>&amp;',
  '-e do shell script "id"',
];

/** The reminder's text for a name, as reminder.ts builds it. */
const notification = (name: string) => ({ title: 'Nothing is being tracked', body: `Nothing has been tracked for 42 minutes. Continue "${name}"?` });

/** The script text of a PowerShell `-EncodedCommand` argument. */
function decodePowerShell(encoded: string): string {
  assert.match(encoded, /^[A-Za-z0-9+/]+=*$/, 'plain base64');
  return Buffer.from(encoded, 'base64').toString('utf16le');
}

test('osascript gets a fixed script with `on run argv` and the title and body as one argument each', () => {
  for (const name of HOSTILE_NAMES) {
    const n = notification(name);
    const { argv, env } = macNotifyCommand(n);
    assert.deepEqual(argv, ['osascript', '-e', MAC_NOTIFY_SCRIPT[0], '-e', MAC_NOTIFY_SCRIPT[1], '-e', MAC_NOTIFY_SCRIPT[2], 'tock-notification', n.title, n.body]);
    assert.deepEqual(env, {});
    // The source is the same for every name and holds none of it.
    const source = argv.slice(1, 7).filter((_, i) => i % 2 === 1).join('\n');
    assert.equal(source, 'on run argv\ndisplay notification (item 3 of argv) with title (item 2 of argv)\nend run');
    assert.ok(!source.includes(name));
    assert.equal(argv.filter((a) => a.includes(name)).length, 1, 'the name is in exactly one element, the body');
    // Item 1 is fixed, so no text of the person's stands where osascript reads options.
    assert.equal(argv[7], 'tock-notification');
  }
});

test('PowerShell gets a fixed -EncodedCommand script that reads the title and body from $env:, the text only in the environment', () => {
  for (const name of HOSTILE_NAMES) {
    const n = notification(name);
    const { argv, env } = windowsToastCommand(n);
    assert.deepEqual(argv.slice(0, 4), ['powershell.exe', '-NoProfile', '-NonInteractive', '-EncodedCommand']);
    assert.equal(argv.length, 5);
    const script = decodePowerShell(argv[4] as string);
    assert.equal(script, WINDOWS_TOAST_SCRIPT);
    assert.ok(!script.includes(name), 'the script source holds none of the name');
    assert.ok(!argv.some((a) => a.includes(name)), 'no argument holds it either');
    assert.deepEqual(env, { [WINDOWS_NOTIFY_ENV.title]: n.title, [WINDOWS_NOTIFY_ENV.body]: n.body });
  }
  // The script reads exactly those variables, and puts them in as XML text nodes, not markup.
  assert.match(WINDOWS_TOAST_SCRIPT, /CreateTextNode\(\$env:TOCK_NOTIFY_TITLE\)/);
  assert.match(WINDOWS_TOAST_SCRIPT, /CreateTextNode\(\$env:TOCK_NOTIFY_BODY\)/);
  // Nothing in it is expanded from outside but those two: no other $env:, no Invoke-Expression.
  assert.deepEqual([...WINDOWS_TOAST_SCRIPT.matchAll(/\$env:(\w+)/g)].map((m) => m[1]), ['TOCK_NOTIFY_TITLE', 'TOCK_NOTIFY_BODY']);
  assert.doesNotMatch(WINDOWS_TOAST_SCRIPT, /Invoke-Expression|iex\b/i);
});

test('busctl on Linux gets the title and body as one typed argument each, after --', () => {
  for (const name of HOSTILE_NAMES) {
    const n = notification(name);
    const argv = freedesktopNotifyArgv({ ...n, action: { id: 'continue', label: 'Continue' } });
    const separator = argv.indexOf('--');
    assert.ok(separator > 0 && separator < argv.indexOf(n.body));
    assert.equal(argv[argv.indexOf('susssasa{sv}i') + 4], n.title);
    assert.equal(argv[argv.indexOf('susssasa{sv}i') + 5], n.body);
    assert.equal(argv.filter((a) => a.includes(name)).length, 1);
  }
});

test('the notifiers run the commands with the text added to the app’s environment', async () => {
  const calls: { argv: readonly string[]; env: NodeJS.ProcessEnv | undefined }[] = [];
  const run: RunCommand = async (argv, options) => {
    calls.push({ argv, env: options?.env });
    return '';
  };
  const n = notification('it\u2019s "$x"');
  await notifierFor('win32', { run, env: { PATH: 'C:\\Windows' } }).notify(n);
  await notifierFor('darwin', { run, env: { PATH: '/usr/bin' } }).notify(n);
  assert.deepEqual(calls[0]?.env, { PATH: 'C:\\Windows', TOCK_NOTIFY_TITLE: n.title, TOCK_NOTIFY_BODY: n.body });
  assert.equal(calls[0]?.argv[0], 'powershell.exe');
  assert.deepEqual(calls[1]?.env, { PATH: '/usr/bin' });
  assert.equal(calls[1]?.argv.at(-1), n.body);
});

test('a control character or a bidirectional override from an old store becomes U+FFFD, so NUL never reaches spawn', () => {
  assert.equal(notificationText('a\u0000b\u001b[31mc\u202Ed\u0085'), 'a\uFFFDb\uFFFD[31mc\uFFFDd\uFFFD');
  const { env } = windowsToastCommand({ title: 't', body: 'x\u0000y' });
  assert.equal(env[WINDOWS_NOTIFY_ENV.body], 'x\uFFFDy');
  assert.deepEqual(macNotifyCommand({ title: '\u0000', body: 'b\u001b' }).argv.slice(-2), ['\uFFFD', 'b\uFFFD']);
});
