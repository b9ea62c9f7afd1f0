/**
 * `tock service` and `tock install-cli`: the files each platform gets, checked for content
 * (and by `systemd-analyze verify` for the systemd unit); install, reinstall, status and
 * uninstall run on the real file system in a temp HOME, with the service managers
 * (systemctl, launchctl, schtasks) stood in for by a recorder — a user systemd does not run in
 * this container, and macOS and Windows cannot. The launcher is installed and run for real.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { TOCK_CLI_PATH } from '../src/git-hook.ts';
import { launcherPath, launcherScript, removeLauncher, shQuote } from '../src/service/install-cli.ts';
import { installService, serviceFile, serviceStatus, uninstallService, type ServiceContext, type ServiceRunner } from '../src/service/service.ts';
import { autostartEntry, desktopExecQuote, launchAgentPlist, systemdQuote, systemdUnit, windowsLogonTask, windowsQuote } from '../src/service/units.ts';
import { tock } from './real-app.ts';

function tempHome(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'tock-service-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A service manager stand-in: records every command; `systemd` says whether a user systemd answers. */
function recorder(systemd: boolean): ServiceRunner & { calls: string[] } {
  const run = (async (argv: readonly string[]) => {
    run.calls.push(argv.join(' '));
    if (argv[0] === 'systemctl' && !systemd) return { code: 1, stdout: '', stderr: 'Failed to connect to bus: No medium found' };
    if (argv.join(' ') === 'systemctl --user is-enabled tock.service') return { code: 0, stdout: 'enabled\n', stderr: '' };
    if (argv.join(' ') === 'systemctl --user is-active tock.service') return { code: 0, stdout: 'active\n', stderr: '' };
    return { code: 0, stdout: '', stderr: '' };
  }) as ServiceRunner & { calls: string[] };
  run.calls = [];
  return run;
}

function context(home: string, platform: NodeJS.Platform, run: ServiceRunner, tockHome?: string, appRunning = false): ServiceContext {
  return {
    appRunning: async () => appRunning,
    platform,
    env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), APPDATA: join(home, 'AppData', 'Roaming'), USERDOMAIN: 'PC', USERNAME: 'ada' },
    run,
    command: { node: process.execPath, cli: TOCK_CLI_PATH, home: tockHome },
  };
}

/** Splits a Desktop Entry Exec value back into argv, by the spec's rules (string escapes, then quoting). */
function parseDesktopExec(value: string): string[] {
  const unescaped = value.replace(/\\\\/g, '\\');
  const args: string[] = [];
  let i = 0;
  while (i < unescaped.length) {
    if (unescaped[i] === ' ') {
      i++;
      continue;
    }
    let arg = '';
    if (unescaped[i] === '"') {
      i++;
      while (unescaped[i] !== '"') {
        if (unescaped[i] === '\\') i++;
        arg += unescaped[i++];
      }
      i++;
    } else {
      while (i < unescaped.length && unescaped[i] !== ' ') arg += unescaped[i++];
    }
    args.push(arg.replace(/%%/g, '%'));
  }
  return args;
}

test('the systemd user unit runs this Node and tock with TOCK_HOME, restarts on failure, and passes systemd-analyze verify', (t) => {
  const dir = tempHome(t);
  const unit = systemdUnit({ node: process.execPath, cli: TOCK_CLI_PATH, home: '/home/ada/Time 100% $HOME' });
  assert.match(unit, /^# Written by `tock service install`/);
  assert.ok(unit.includes(`ExecStart="${process.execPath}" "${TOCK_CLI_PATH}" "app" "--background"\n`), unit);
  assert.ok(unit.includes('Environment="TOCK_HOME=/home/ada/Time 100%% $$HOME"\n'), unit);
  assert.match(unit, /\nRestart=on-failure\n/);
  assert.match(unit, /\[Install\]\nWantedBy=default\.target\n/);
  const file = join(dir, 'tock.service');
  writeFileSync(file, unit);
  const runtime = join(dir, 'runtime');
  mkdirSync(runtime, { mode: 0o700 });
  const verify = spawnSync('systemd-analyze', ['--user', 'verify', file], { env: { ...process.env, XDG_RUNTIME_DIR: runtime, HOME: dir }, encoding: 'utf8' });
  assert.equal(verify.status, 0, verify.stderr);
  assert.equal(verify.stderr.trim(), '', 'no warnings');
  assert.equal(systemdQuote('a"b\\c'), '"a\\"b\\\\c"');
  assert.ok(!systemdUnit({ node: '/n', cli: '/c', home: undefined }).includes('TOCK_HOME'), 'no TOCK_HOME line when none is set');
});

test('the autostart entry quotes by the Desktop Entry rules (its Exec reads back as the same argv) and passes desktop-file-validate', (t) => {
  const home = '/home/ada/My "Time" `x` $y \\z 50%';
  const entry = autostartEntry({ node: '/opt/node 24/bin/node', cli: TOCK_CLI_PATH, home });
  const exec = /^Exec=(.*)$/m.exec(entry)?.[1];
  assert.ok(exec);
  assert.deepEqual(parseDesktopExec(exec), ['env', `TOCK_HOME=${home}`, '/opt/node 24/bin/node', TOCK_CLI_PATH, 'app', '--background']);
  assert.match(entry, /^\[Desktop Entry\]$/m);
  assert.match(entry, /^Type=Application$/m);
  assert.equal(desktopExecQuote('/usr/bin/node'), '/usr/bin/node');
  const file = join(tempHome(t), 'tock.desktop');
  writeFileSync(file, entry);
  const check = spawnSync('desktop-file-validate', [file], { encoding: 'utf8' });
  assert.equal(check.status, 0, check.stdout + check.stderr);
  assert.equal(check.stdout + check.stderr, '', 'no warnings');
});

test('Linux without a user systemd: install writes the autostart entry, twice harmlessly; status and uninstall find it; uninstall again says so', async (t) => {
  const home = tempHome(t);
  const run = recorder(false);
  const ctx = context(home, 'linux', run, '/data/tock');
  const first = await installService(ctx);
  const file = join(home, '.config', 'autostart', 'tock.desktop');
  assert.deepEqual([first.mechanism, first.file], ['autostart', file]);
  assert.match(first.message, /^Installed the XDG autostart entry .*tock\.desktop; Tock starts at your next login$/);
  const content = readFileSync(file, 'utf8');
  assert.ok(content.includes(`Exec=env TOCK_HOME=/data/tock ${desktopExecQuote(process.execPath)} ${desktopExecQuote(TOCK_CLI_PATH)} app --background\n`), content);
  const again = await installService(ctx);
  assert.match(again.message, /^Updated the XDG autostart entry/);
  assert.equal(readFileSync(file, 'utf8'), content);
  assert.equal(existsSync(join(home, '.config', 'systemd')), false, 'no unit written where systemd does not run');
  const status = await serviceStatus(ctx);
  assert.equal(status.mechanism, 'autostart');
  const removed = await uninstallService(ctx);
  assert.equal(removed.message, `Removed ${file}; Tock no longer starts at login`);
  assert.equal(existsSync(file), false);
  assert.equal((await uninstallService(ctx)).message, 'Tock is not installed as a service; nothing to remove');
  assert.deepEqual(run.calls.filter((c) => !c.startsWith('systemctl --user show-environment')), []);
});

test('Linux with a user systemd: install writes the unit, reloads and enables it now; uninstall disables and removes exactly it', async (t) => {
  const home = tempHome(t);
  const run = recorder(true);
  const ctx = context(home, 'linux', run);
  const report = await installService(ctx);
  const file = join(home, '.config', 'systemd', 'user', 'tock.service');
  assert.deepEqual([report.mechanism, report.file], ['systemd', file]);
  assert.equal(readFileSync(file, 'utf8'), systemdUnit(ctx.command));
  assert.deepEqual(run.calls, ['systemctl --user show-environment', 'systemctl --user daemon-reload', 'systemctl --user enable --now tock.service']);
  const status = await serviceStatus(ctx);
  assert.equal(status.message, `systemd user unit ${file} (enabled, active)`);
  // Someone's own file next to ours is not touched.
  const other = join(home, '.config', 'systemd', 'user', 'other.service');
  writeFileSync(other, '[Service]\nExecStart=/bin/true\n');
  run.calls.length = 0;
  await uninstallService(ctx);
  assert.deepEqual(run.calls, ['systemctl --user show-environment', 'systemctl --user disable --now tock.service', 'systemctl --user show-environment', 'systemctl --user daemon-reload']);
  assert.equal(existsSync(file), false);
  assert.equal(existsSync(other), true);
});

test('with an app already running on that home, install only enables the service (no second app failing and restarting)', async (t) => {
  const home = tempHome(t);
  const systemd = recorder(true);
  const report = await installService(context(home, 'linux', systemd, undefined, true));
  assert.deepEqual(systemd.calls, ['systemctl --user show-environment', 'systemctl --user daemon-reload', 'systemctl --user enable tock.service']);
  assert.match(report.message, /; Tock starts at login \(it is already running now, so it was not started again\)$/);
  const mac = recorder(false);
  await installService(context(tempHome(t), 'darwin', mac, undefined, true));
  assert.deepEqual(mac.calls, [`launchctl bootout gui/${process.getuid?.() ?? 0}/app.tock.Tock`]);
  const win = recorder(false);
  await installService(context(tempHome(t), 'win32', win, undefined, true));
  assert.equal(win.calls.length, 1, 'created, not run');
});

test('a tock.service that Tock did not write is refused, not overwritten or removed', async (t) => {
  const home = tempHome(t);
  const ctx = context(home, 'linux', recorder(true));
  const file = serviceFile('systemd', ctx.env);
  mkdirSync(join(home, '.config', 'systemd', 'user'), { recursive: true });
  writeFileSync(file, '[Service]\nExecStart=/usr/bin/my-tock\n');
  await assert.rejects(installService(ctx), { code: 'service_failed', message: `${file} exists and was not written by Tock; move it away, then run \`tock service install\` again` });
  assert.equal((await uninstallService(ctx)).message, 'Tock is not installed as a service; nothing to remove');
  assert.equal(readFileSync(file, 'utf8'), '[Service]\nExecStart=/usr/bin/my-tock\n');
});

test('a failing systemctl is one line saying what failed', async (t) => {
  const home = tempHome(t);
  const run: ServiceRunner = async (argv) =>
    argv.includes('enable') ? { code: 1, stdout: '', stderr: 'Failed to enable unit: Access denied\n' } : { code: 0, stdout: '', stderr: '' };
  await assert.rejects(installService(context(home, 'linux', run)), { message: 'systemctl --user enable --now tock.service failed: Failed to enable unit: Access denied' });
});

test('macOS: a LaunchAgent kept alive after a crash, loaded with launchctl; uninstall boots it out', async (t) => {
  const home = tempHome(t);
  const run = recorder(false);
  const ctx = context(home, 'darwin', run, '/Users/ada/Tock & <data>');
  const report = await installService(ctx);
  const file = join(home, 'Library', 'LaunchAgents', 'app.tock.Tock.plist');
  assert.equal(report.file, file);
  const plist = readFileSync(file, 'utf8');
  assert.equal(plist, launchAgentPlist(ctx.command, join(home, 'Library', 'Logs', 'Tock', 'tock.log')));
  // What launchd will read, parsed by Python's plistlib.
  const parsed = spawnSync('python3', ['-c', 'import json, plistlib, sys; print(json.dumps(plistlib.load(open(sys.argv[1], "rb"))))', file], { encoding: 'utf8' });
  assert.equal(parsed.status, 0, parsed.stderr);
  assert.deepEqual(JSON.parse(parsed.stdout), {
    Label: 'app.tock.Tock',
    ProgramArguments: [process.execPath, TOCK_CLI_PATH, 'app', '--background'],
    EnvironmentVariables: { TOCK_HOME: '/Users/ada/Tock & <data>' },
    RunAtLoad: true,
    KeepAlive: { SuccessfulExit: false },
    ProcessType: 'Interactive',
    StandardOutPath: join(home, 'Library', 'Logs', 'Tock', 'tock.log'),
    StandardErrorPath: join(home, 'Library', 'Logs', 'Tock', 'tock.log'),
  });
  assert.ok(plist.includes(`<array>\n    <string>${process.execPath}</string>\n    <string>${TOCK_CLI_PATH}</string>\n    <string>app</string>\n    <string>--background</string>\n  </array>`));
  assert.ok(plist.includes('<key>TOCK_HOME</key>\n    <string>/Users/ada/Tock &amp; &lt;data&gt;</string>'));
  assert.match(plist, /<key>KeepAlive<\/key>\n  <dict>\n    <key>SuccessfulExit<\/key>\n    <false\/>/);
  assert.match(plist, /<key>RunAtLoad<\/key>\n  <true\/>/);
  const uid = process.getuid?.() ?? 0;
  assert.deepEqual(run.calls, [`launchctl bootout gui/${uid}/app.tock.Tock`, `launchctl bootstrap gui/${uid} ${file}`]);
  await uninstallService(ctx);
  assert.equal(existsSync(file), false);
});

test('Windows: a logon task restarted on failure, created and deleted with schtasks', async (t) => {
  const home = tempHome(t);
  const run = recorder(false);
  const ctx = context(home, 'win32', run, 'C:\\Users\\ada\\Tock Data');
  const report = await installService(ctx);
  const bytes = readFileSync(report.file!);
  assert.deepEqual([bytes[0], bytes[1]], [0xff, 0xfe], 'UTF-16 LE with a byte order mark, as declared');
  const xml = bytes.subarray(2).toString('utf16le');
  assert.equal(xml, windowsLogonTask(ctx.command, 'PC\\ada'));
  // Well-formed XML in its declared encoding (Python's parser, which honours the declaration).
  const parsed = spawnSync('python3', ['-c', 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); print(r.find("{http://schemas.microsoft.com/windows/2004/02/mit/task}Actions")[0][0].text)', report.file!], { encoding: 'utf8' });
  assert.equal(parsed.status, 0, parsed.stderr);
  assert.equal(parsed.stdout.trim(), 'cmd.exe');
  assert.match(xml, /<LogonTrigger>\n      <Enabled>true<\/Enabled>\n      <UserId>PC\\ada<\/UserId>/);
  assert.match(xml, /<RestartOnFailure>\n      <Interval>PT1M<\/Interval>\n      <Count>999<\/Count>/);
  assert.match(xml, /<Command>cmd\.exe<\/Command>/);
  assert.ok(xml.includes(`set &quot;TOCK_HOME=C:\\Users\\ada\\Tock Data&quot; &amp;&amp; ${windowsQuote(process.execPath)}`), xml);
  assert.deepEqual(run.calls, [`schtasks /Create /TN Tock /XML ${report.file} /F`, 'schtasks /Run /TN Tock']);
  const plain = windowsLogonTask({ node: 'C:\\Program Files\\nodejs\\node.exe', cli: 'C:\\tock\\bin\\tock.js', home: undefined }, 'ada');
  assert.match(plain, /<Command>C:\\Program Files\\nodejs\\node\.exe<\/Command>\n      <Arguments>C:\\tock\\bin\\tock\.js app --background<\/Arguments>/);
  await uninstallService(ctx);
  assert.deepEqual(run.calls.at(-1), 'schtasks /Delete /TN Tock /F');
  assert.match(report.message, /; Tock starts at login and was started now$/);
  assert.equal(windowsQuote('C:\\a b\\'), '"C:\\a b\\\\"');
});

test('tock service install where no user systemd answers: the autostart entry, for real, on a temp HOME', async (t) => {
  const home = tempHome(t);
  // No XDG_RUNTIME_DIR and no session bus: `systemctl --user` cannot reach a user manager here
  // (nor the developer's own, on a machine that has one).
  const env = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), TOCK_HOME: join(home, 'data') };
  const file = join(home, '.config', 'autostart', 'tock.desktop');
  const install = await tock(env, 'service', 'install');
  assert.equal(install.status, 0, install.err);
  assert.equal(install.out, `Installed the XDG autostart entry (no user systemd here: started at login, not restarted after a crash) ${file}; Tock starts at your next login`);
  assert.match(readFileSync(file, 'utf8'), new RegExp(`^Exec=env TOCK_HOME=${join(home, 'data').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} `, 'm'));
  assert.match((await tock(env, 'service', 'install')).out, /^Updated the XDG autostart entry/);
  assert.match((await tock(env, 'service', 'status')).out, /^service: XDG autostart entry .*tock\.desktop\napp: not answering/);
  const json = JSON.parse((await tock(env, 'service', 'status', '--json')).out) as { mechanism: string; appAnswers: boolean };
  assert.deepEqual([json.mechanism, json.appAnswers], ['autostart', false]);
  assert.equal((await tock(env, 'service', 'uninstall')).out, `Removed ${file}; Tock no longer starts at login`);
  assert.equal(existsSync(file), false);
});

test('tock service status and uninstall with nothing installed say so (the app not answering either)', async (t) => {
  const home = tempHome(t);
  const env = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), TOCK_HOME: join(home, 'tock') };
  const status = await tock(env, 'service', 'status');
  assert.equal(status.status, 0);
  assert.equal(status.out, `service: not installed: Tock does not start at login (\`tock service install\` to change that)\napp: not answering (home: ${join(home, 'tock')})`);
  const uninstall = await tock(env, 'service', 'uninstall');
  assert.deepEqual([uninstall.status, uninstall.out], [0, 'Tock is not installed as a service; nothing to remove']);
  const bad = await tock(env, 'service', 'restart');
  assert.deepEqual([bad.status, bad.err], [1, 'error: unknown service action "restart"; use install, uninstall or status']);
});

test('tock install-cli puts a launcher on ~/.local/bin that runs this Node and tock from anywhere; --remove takes it away', async (t) => {
  const home = tempHome(t);
  const bin = join(home, '.local', 'bin');
  const env = { PATH: `${bin}:/usr/bin:/bin`, HOME: home };
  const installed = await tock(env, 'install-cli');
  assert.equal(installed.status, 0, installed.err);
  const path = join(bin, 'tock');
  assert.equal(installed.out, `Installed ${path} (Node ${process.execPath}); \`tock\` now runs it from any directory`);
  assert.equal(statSync(path).mode & 0o777, 0o755);
  assert.equal(readFileSync(path, 'utf8'), launcherScript({ platform: 'linux', env, node: process.execPath, cli: TOCK_CLI_PATH }));
  // A shell in another directory finds it on the PATH, and it is this Tock.
  const help = execFileSync('sh', ['-c', 'cd / && tock help'], { env, encoding: 'utf8' });
  assert.match(help, /^usage: tock <command>/);
  assert.match(help, /install-cli/);
  assert.equal((await tock(env, 'install-cli')).status, 0, 'installing twice is harmless');

  const offPath = await tock({ PATH: '/usr/bin:/bin', HOME: home }, 'install-cli');
  assert.match(offPath.out, /is not on your PATH: add `export PATH=".*\/\.local\/bin:\$PATH"` to your shell's profile$/);

  assert.equal((await tock(env, 'install-cli', '--remove')).out, `Removed ${path}`);
  assert.equal(existsSync(path), false);
  assert.equal((await tock(env, 'install-cli', '--remove')).out, `no launcher at ${path}; nothing to remove`);
  writeFileSync(path, '#!/bin/sh\necho mine\n');
  const refused = await tock(env, 'install-cli');
  assert.deepEqual([refused.status, refused.err], [1, `error: ${path} exists and was not written by Tock; move it away, then run \`tock install-cli\` again`]);
  assert.throws(() => removeLauncher({ platform: 'linux', env, node: process.execPath, cli: TOCK_CLI_PATH }), { message: `${path} was not written by Tock; it was left alone` });
});

test('the launcher quotes paths for the shell, and on Windows is a tock.cmd', () => {
  assert.equal(shQuote("/opt/it's here/node"), `'/opt/it'\\''s here/node'`);
  const win = { platform: 'win32' as const, env: { LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' }, node: 'C:\\node\\node.exe', cli: 'C:\\tock\\bin\\tock.js' };
  assert.equal(launcherPath(win), join('C:\\Users\\ada\\AppData\\Local', 'Tock', 'bin', 'tock.cmd'));
  assert.match(launcherScript(win), /^@echo off\r\n.*\r\n"C:\\node\\node\.exe" "C:\\tock\\bin\\tock\.js" %\*\r\n$/);
});

test('tock service and tock install-cli speak the person’s language; --json keeps message in English and adds the facts', async (t) => {
  const home = tempHome(t);
  const bin = join(home, '.local', 'bin');
  const env = { PATH: `${bin}:${process.env.PATH}`, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), TOCK_HOME: join(home, 'data'), LANG: 'de_DE.UTF-8' };
  const file = join(home, '.config', 'autostart', 'tock.desktop');

  const install = await tock(env, 'service', 'install');
  assert.equal(install.status, 0, install.err);
  assert.equal(install.out, `Installiert: XDG-Autostart-Eintrag (hier kein Benutzer-systemd: beim Anmelden gestartet, nach einem Absturz nicht neu gestartet) ${file}; Tock startet bei Ihrer nächsten Anmeldung`);
  const again = JSON.parse((await tock(env, 'service', 'install', '--json')).out);
  assert.deepEqual(again, {
    mechanism: 'autostart',
    file,
    done: 'updated',
    started: 'next-login',
    removed: [],
    message: `Updated the XDG autostart entry (no user systemd here: started at login, not restarted after a crash) ${file}; Tock starts at your next login`,
  });
  assert.equal((await tock(env, 'service', 'status')).out, `Dienst: XDG-Autostart-Eintrag (hier kein Benutzer-systemd: beim Anmelden gestartet, nach einem Absturz nicht neu gestartet) ${file}\nApp: antwortet nicht (Home: ${join(home, 'data')})`);
  assert.equal((await tock(env, 'service', 'uninstall')).out, `Entfernt: ${file}; Tock startet nicht mehr beim Anmelden`);
  assert.equal((await tock(env, 'service', 'uninstall')).out, 'Tock ist nicht als Dienst eingerichtet; nichts zu entfernen');

  const path = join(bin, 'tock');
  assert.equal((await tock(env, 'install-cli')).out, `Installiert: ${path} (Node ${process.execPath}); \`tock\` läuft jetzt aus jedem Verzeichnis`);
  assert.deepEqual(JSON.parse((await tock(env, 'install-cli', '--json')).out), {
    path,
    dir: bin,
    onPath: true,
    node: process.execPath,
    platform: process.platform,
    done: 'installed',
    message: `Installed ${path} (Node ${process.execPath}); \`tock\` now runs it from any directory`,
  });
  assert.equal((await tock({ ...env, PATH: '/usr/bin:/bin' }, 'install-cli')).out, `Installiert: ${path} (Node ${process.execPath}); ${bin} ist nicht in Ihrem PATH: fügen Sie \`export PATH="${bin}:$PATH"\` dem Profil Ihrer Shell hinzu`);
  assert.equal((await tock(env, 'install-cli', '--remove')).out, `Entfernt: ${path}`);
  assert.equal((await tock(env, 'install-cli', '--remove')).out, `kein Starter unter ${path}; nichts zu entfernen`);
  // Refused: a `tock` Tock did not write is left alone, said in German too.
  writeFileSync(path, '#!/bin/sh\necho mine\n');
  const refused = await tock(env, 'install-cli');
  assert.deepEqual([refused.status, refused.err], [1, `error: ${path} existiert bereits und stammt nicht von Tock; verschieben Sie die Datei und führen Sie \`tock install-cli\` erneut aus`]);
  assert.equal((await tock(env, 'install-cli', '--remove')).err, `error: ${path} stammt nicht von Tock; die Datei wurde nicht angetastet`);
  rmSync(path);

  // The pseudo-locale: every one of these lines comes from a catalog (none stays plain English).
  const pseudo = { ...env, LANG: 'en_XA' };
  for (const argv of [['service', 'install'], ['service', 'status'], ['service', 'uninstall'], ['service', 'uninstall'], ['install-cli'], ['install-cli', '--remove'], ['install-cli', '--remove']]) {
    const run = await tock(pseudo, ...argv);
    assert.equal(run.status, 0, run.err);
    for (const line of run.out.split('\n')) assert.match(line, /^\[.*\]$/u, `tock ${argv.join(' ')}: ${line}`);
  }
});
