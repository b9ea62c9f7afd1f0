/**
 * Attack (issue 35 finding 4): another session-bus client injects capture spans into a real
 * `tock app` — `dbus-send` to Tock's KWin callback, or a forged GNOME `FocusChanged` — on a
 * private dbus-daemon. KWin and GNOME Shell (with Tock's extension) are stood in for by
 * connections of this test that own `org.kde.KWin` / `org.gnome.Shell`, as the desktops'
 * would. Version 3 stored every such report as a span; now a report counts only from the
 * unique name that owns the desktop's name at that moment (docs/desktop.md "Who may report the
 * focus"), and `tock capture status` counts the others.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pinnedClockEnv, startDBusSession, until, type DBusSession } from '@tock/test-support';
import type { Timeline } from '@tock/core';
import { ACCESS_DENIED, connectSessionBus, type SessionBus } from '@tock/desktop/capture/dbus';
import { GNOME_EXTENSION } from '@tock/desktop/capture/gnome';
import { KWIN_CONTRACT } from '@tock/desktop/capture/kde';
import { spawnApp, tock, type AppProcess } from './support/app-process.ts';

/** One `dbus-send` run: the attacker's own process on the bus. */
function dbusSend(env: NodeJS.ProcessEnv, args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile('dbus-send', ['--session', ...args], { env, timeout: 10_000 }, (error, _stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stderr });
    });
  });
}

/** A real app on its own private bus, with capture on. */
class AppOnBus {
  session!: DBusSession;
  root!: string;
  env!: NodeJS.ProcessEnv;
  app!: AppProcess;

  async start(standIn: (env: NodeJS.ProcessEnv) => Promise<unknown>, sourceID: string): Promise<void> {
    this.session = await startDBusSession();
    this.root = mkdtempSync(join(tmpdir(), 'tock-attack-capture-bus-'));
    this.env = {
      PATH: process.env.PATH,
      HOME: this.root,
      TZ: process.env.TZ,
      TOCK_HOME: join(this.root, 'tock'),
      TOCK_CREDENTIAL_STORE: 'file',
      DBUS_SESSION_BUS_ADDRESS: this.session.address,
      ...pinnedClockEnv(),
    };
    await standIn(this.env);
    this.app = await spawnApp(this.env);
    await this.run('capture', 'set', 'titles', 'true');
    await this.run('capture', 'on');
    await until(`capture to follow ${sourceID}`, async () => ((await this.status()).source?.id === sourceID ? true : undefined), { watch: this.app.child });
  }

  async run(...args: string[]): Promise<string> {
    const done = await tock(args, this.env);
    assert.equal(done.code, 0, `tock ${args.join(' ')}: ${done.stderr}`);
    return done.stdout;
  }

  async status(): Promise<{ source: { id: string } | null; ignoredReports: number }> {
    return JSON.parse(await this.run('capture', 'status', '--json')) as { source: { id: string } | null; ignoredReports: number };
  }

  /** Every app the day's timeline names, the open span included. */
  async apps(): Promise<(string | null)[]> {
    const day = JSON.parse(await this.run('timeline', '--json')) as Timeline;
    return day.spans.map((s) => ('app' in s ? (s.app ?? null) : null));
  }

  async stop(): Promise<void> {
    if (this.app && this.app.child.exitCode === null && this.app.child.signalCode === null) {
      this.app.child.kill('SIGTERM');
      await this.app.exited;
    }
    this.session?.stop();
    if (this.root) rmSync(this.root, { recursive: true, force: true });
  }
}

describe('attack: a bus client forges KWin focus reports to a real app (35.4)', () => {
  const on = new AppOnBus();
  const kwins: SessionBus[] = [];
  /** A stand-in KWin: owns org.kde.KWin and loads Tock's script (the test then calls Tock as the script would). */
  const standInKWin = async (env: NodeJS.ProcessEnv): Promise<SessionBus> => {
    const kwin = await connectSessionBus(env);
    kwins.push(kwin);
    kwin.serve(KWIN_CONTRACT.scripting, KWIN_CONTRACT.scriptingIface, {
      loadScript: { in: 'ss', out: 'i', run: () => 5 },
      unloadScript: { in: 's', out: 'b', run: () => true },
    });
    kwin.serve('/Scripting/Script5', KWIN_CONTRACT.scriptIface, { run: { in: '', out: '', run: () => undefined } });
    assert.ok(await kwin.requestName(KWIN_CONTRACT.kwin));
    return kwin;
  };
  const activated = (bus: SessionBus, app: string, title: string): Promise<unknown[]> => bus.call(KWIN_CONTRACT.busName, KWIN_CONTRACT.path, KWIN_CONTRACT.iface, 'Activated', 'ss', [app, title]);

  before(() => on.start(standInKWin, 'kde'));
  after(async () => {
    for (const k of kwins) k.close();
    await on.stop();
  });

  it('dbus-send to the KWin callback is refused and counted, KWin itself is stored, and after the name moves the old KWin is refused', async () => {
    const [kwin] = kwins as [SessionBus];
    await activated(kwin, 'org.kde.kate', 'notes.txt — Kate');
    assert.deepEqual(await on.apps(), ['org.kde.kate']);

    const forged = await dbusSend(on.env, ['--print-reply', `--dest=${KWIN_CONTRACT.busName}`, KWIN_CONTRACT.path, `${KWIN_CONTRACT.iface}.Activated`, 'string:evil', 'string:injected']);
    assert.notEqual(forged.code, 0);
    assert.match(forged.stderr, new RegExp(ACCESS_DENIED.replaceAll('.', '\\.')));
    assert.equal((await on.status()).ignoredReports, 1);
    assert.deepEqual(await on.apps(), ['org.kde.kate'], 'nothing of the forged report is stored or open');

    // KWin restarts: the name moves to a new connection; the old one is no longer KWin.
    await kwin.releaseName(KWIN_CONTRACT.kwin);
    const next = await standInKWin(on.env);
    await assert.rejects(activated(kwin, 'evil', 'after the move'), /AccessDenied/);
    assert.equal((await on.status()).ignoredReports, 2);
    await activated(next, 'firefox', 'Docs');
    await until('the new KWin report in the timeline', async () => ((await on.apps()).at(-1) === 'firefox' ? true : undefined));
    assert.ok(!(await on.apps()).includes('evil'));
    assert.match(await on.run('capture', 'status'), /^ignored: 2 reports from bus clients other than the desktop \(GNOME Shell, KWin, the screensaver\)$/m);
  });

  it('a 2 MiB call from a bus client is dropped and counted; capture goes on following KWin', async () => {
    const attacker = await connectSessionBus(on.env);
    try {
      const before = (await on.status()).ignoredReports;
      // No answer comes (the message is never read): the call times out on the attacker's side.
      void activated(attacker, 'evil', 'x'.repeat(2 * 1024 * 1024)).catch(() => {});
      await until('the message counted', async () => ((await on.status()).ignoredReports === before + 1 ? true : undefined));
      const status = await on.status();
      assert.equal(status.source?.id, 'kde', 'capture still follows KWin');
      await activated(kwins.at(-1) as SessionBus, 'org.kde.dolphin', 'Home');
      await until('the report after it in the timeline', async () => ((await on.apps()).at(-1) === 'org.kde.dolphin' ? true : undefined));
      assert.ok(!(await on.apps()).includes('evil'));
    } finally {
      attacker.close();
    }
  });
});

describe('attack: a bus client forges GNOME Shell focus reports to a real app (35.4, 35.7)', () => {
  const on = new AppOnBus();
  let shell: SessionBus;
  let focused: [string, string] = ['org.gnome.TextEditor', 'notes.txt'];
  const asked: boolean[] = [];
  /** A stand-in GNOME Shell with Tock's extension (its contract: takes Configure from the owner of app.tock.Capture only). */
  const standInShell = async (env: NodeJS.ProcessEnv): Promise<void> => {
    shell = await connectSessionBus(env);
    const tockName = await shell.watchNameOwner(GNOME_EXTENSION.tockBusName);
    shell.serve(GNOME_EXTENSION.path, GNOME_EXTENSION.iface, {
      Configure: {
        in: 'b',
        out: 'ss',
        run: ([titles], sender) => {
          if (sender !== tockName.current()) return Object.assign(new Error('only Tock'), { dbusName: ACCESS_DENIED });
          asked.push(titles === true);
          return [focused[0], titles === true ? focused[1] : ''];
        },
      },
    });
    assert.ok(await shell.requestName(GNOME_EXTENSION.busName));
  };
  const tell = (): Promise<unknown[]> => shell.call(GNOME_EXTENSION.tockBusName, GNOME_EXTENSION.path, GNOME_EXTENSION.tockIface, 'FocusChanged', 'ss', focused);

  before(() => on.start(standInShell, 'gnome'));
  after(async () => {
    shell?.close();
    await on.stop();
  });

  it('a forged FocusChanged call is refused and counted, a forged broadcast is not heard, the shell itself is stored', async () => {
    await until('the first window', async () => ((await on.apps()).includes('org.gnome.TextEditor') ? true : undefined));
    focused = ['evil', 'injected'];
    const call = await dbusSend(on.env, ['--print-reply', `--dest=${GNOME_EXTENSION.tockBusName}`, GNOME_EXTENSION.path, `${GNOME_EXTENSION.tockIface}.FocusChanged`, 'string:evil', 'string:injected']);
    assert.notEqual(call.code, 0);
    assert.match(call.stderr, /AccessDenied/);
    // The same without asking for an answer, as the extension sends its reports: still not stored.
    const quiet = await dbusSend(on.env, ['--type=method_call', `--dest=${GNOME_EXTENSION.tockBusName}`, GNOME_EXTENSION.path, `${GNOME_EXTENSION.tockIface}.FocusChanged`, 'string:evil', 'string:quiet']);
    assert.equal(quiet.code, 0);
    await until('the quiet forgery counted', async () => ((await on.status()).ignoredReports === 2 ? true : undefined));
    // Version 3's broadcast, sent by anyone.
    const signal = await dbusSend(on.env, ['--type=signal', GNOME_EXTENSION.path, `${GNOME_EXTENSION.iface}.FocusChanged`, 'string:evil', 'string:broadcast']);
    assert.equal(signal.code, 0);
    assert.equal((await on.status()).ignoredReports, 2);
    focused = ['firefox', 'Docs'];
    await tell();
    await until("the shell's report in the timeline", async () => ((await on.apps()).at(-1) === 'firefox' ? true : undefined));
    assert.ok(!(await on.apps()).includes('evil'));
    assert.ok(asked.every((titles) => titles), 'titles is on in this app');
  });
});
