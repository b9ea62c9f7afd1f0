/**
 * The desktop commands (docs/cli.md): `tock idle`, `tock continue`, `tock open` act on the
 * running app through its admin channel; `tock service` and `tock install-cli` set up how
 * Tock starts and where `tock` is found, and need no running app.
 */
import { isProblem } from '@tock/protocol';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { resolveHome, type IdleAnswer, type IdleQuestion } from '@tock/admin';
import { childEnv } from '@tock/app/open';
import { admin, appAnswers } from './admin-call.ts';
import { flags } from './flags.ts';
import { canOpenWindow } from './window.ts';
import type { Command } from './command.ts';
import { clockFor } from './clock-setting.ts';
import { formatClock, formatSpan, type ClockFormat } from './format-time.ts';
import { TOCK_CLI_PATH } from './git-hook.ts';
import { durationWordsFor } from './client-format.ts';
import type { CliMessages } from './i18n/index.ts';
import { CliError, messagesOf, print, refusal, type Io } from './io.ts';
import { installLauncher, removeLauncher } from './service/install-cli.ts';
import { launcherLine, ServiceFailure, serviceLine, serviceStatusLine } from './service/service-lines.ts';
import { terminalText } from './terminal-text.ts';
import { installService, serviceStatus, uninstallService, type ServiceContext, type ServiceRunner } from './service/service.ts';
import { idleSourceName, idleSourceNeeds } from './source-words.ts';

/** The pending question in one line, with how to answer it. */
function describeIdleQuestion(t: CliMessages, question: IdleQuestion, now: Date, clock: ClockFormat): string {
  return t('idle.question', { name: question.activityName, span: formatSpan(question.since, question.until, now, clock), duration: durationWordsFor(t, question.seconds) });
}

/** What an answer did, in one line. */
function describeIdleAnswer(t: CliMessages, answer: IdleAnswer): string {
  switch (answer.choice) {
    case 'keep':
      return t('idle.kept', { name: answer.activityName });
    case 'discard':
      return t('idle.discarded', { name: answer.activityName, duration: durationWordsFor(t, answer.discardedSeconds) });
    case 'stop':
      return t('idle.stopped', { name: answer.activityName, duration: durationWordsFor(t, answer.discardedSeconds) });
  }
}

const idle: Command = {
  usage: 'tock idle [keep|discard|stop] [--json]',
  async run(args, io) {
    const { values, positionals } = flags(args, {}, 1);
    const choice = positionals[0];
    if (choice === undefined) {
      const found = await admin(io, 'GET /idle');
      const clock = found.question ? await clockFor(io, values.json === true) : '24h';
      const t = messagesOf(io);
      print(io, values.json === true, found, () => {
        if (found.question) return describeIdleQuestion(t, found.question, io.now(), clock);
        const source =
          found.idleSource.state === 'found'
            ? t('idle.source', { name: idleSourceName(t, { id: found.idleSource.id, name: found.idleSource.name ?? '' }) })
            : found.idleSource.state === 'none'
              ? t('idle.noSource')
              : t('idle.lookingForSource');
        // What would make one work: each source tried here and what it needs.
        const hints = found.idleSource.state === 'none' ? found.idleSource.hints : [];
        const needs = hints.length === 0 ? '' : `\n${t('idle.hints')}${hints.map((h) => `\n  ${terminalText(idleSourceName(t, { id: h.id, name: h.source }))}: ${terminalText(idleSourceNeeds(t, h))}`).join('')}`;
        return `${t('idle.none', { source })}${needs}`;
      });
      return 0;
    }
    if (choice !== 'keep' && choice !== 'discard' && choice !== 'stop') throw refusal('idle.badChoice', { choice });
    const answer = await admin(io, 'POST /idle/answer', { choice });
    print(io, values.json === true, answer, () => describeIdleAnswer(messagesOf(io), answer));
    return 0;
  },
};

const continueCommand: Command = {
  usage: 'tock continue [--json]',
  async run(args, io) {
    const { values } = flags(args);
    const started = await admin(io, 'POST /continue');
    const clock = await clockFor(io, values.json === true);
    print(io, values.json === true, started, () => messagesOf(io)('continue.tracking', { name: started.activityName, since: formatClock(started.startedAt, io.now(), clock) }));
    return 0;
  },
};

const open: Command = {
  usage: 'tock open [--print] [--json]',
  async run(args, io) {
    const { values } = flags(args, { print: { type: 'boolean' } });
    const opening = values.print !== true && canOpenWindow(io.env);
    if (opening) {
      // The app writes a 0600 launch file; the browser gets its path, never a code (docs/ui.md "Security decisions").
      const opened = await admin(io, 'POST /open', { file: true });
      if (!('file' in opened)) throw refusal('open.noLaunchFile');
      const { origin, file } = opened;
      const { openInBrowser } = await import('@tock/app/open');
      openInBrowser(file, io.env);
      print(io, values.json === true, { url: `${origin}/`, opened: true }, () => messagesOf(io)('open.opening', { url: `${origin}/` }));
      return 0;
    }
    const opened = await admin(io, 'POST /open');
    if (!('url' in opened)) throw refusal('open.noAddress');
    const { url } = opened;
    print(io, values.json === true, { url, opened: false }, () => messagesOf(io)('open.url', { url }));
    return 0;
  },
};

/** The real runner, in the command's environment: the helper's exit code and output, killed after 30 s. */
const serviceRunner = (env: NodeJS.ProcessEnv): ServiceRunner => (argv) =>
  new Promise((resolvePromise, reject) => {
    const [command, ...rest] = argv;
    // systemd-run and systemctl get HOME, PATH, XDG_RUNTIME_DIR and DBUS_SESSION_BUS_ADDRESS, never a secret.
    execFile(command as string, rest, { env: childEnv(env), timeout: 30_000, killSignal: 'SIGKILL', windowsHide: true }, (error, stdout, stderr) => {
      // A helper that could not start at all (ENOENT: not installed) is rejected with its errno code, for must() to word.
      if (error && typeof error.code !== 'number') reject(error);
      else resolvePromise({ code: error ? (error.code as number) : 0, stdout: String(stdout), stderr: String(stderr) });
    });
  });

/** The service runs this Node and this `tock`, with this `TOCK_HOME` (absolute) when set. */
function serviceContext(io: Io, run: ServiceRunner = serviceRunner(io.env), platform: NodeJS.Platform = process.platform): ServiceContext {
  const home = io.env.TOCK_HOME ? resolve(io.env.TOCK_HOME) : undefined;
  return { platform, env: io.env, run, command: { node: process.execPath, cli: TOCK_CLI_PATH, home }, appRunning: () => appAnswers(io) };
}

const service: Command = {
  usage: 'tock service install | uninstall | status [--json]',
  async run(args, io) {
    const { values, positionals } = flags(args, {}, 1);
    const action = positionals[0] ?? 'status';
    const context = serviceContext(io);
    try {
      const t = messagesOf(io);
      if (action === 'install') {
        const report = await installService(context);
        print(io, values.json === true, report, () => serviceLine(t, report));
      } else if (action === 'uninstall') {
        const report = await uninstallService(context);
        print(io, values.json === true, report, () => serviceLine(t, report));
      } else if (action === 'status') {
        const report = await serviceStatus(context);
        const answering = await appAnswers(io);
        const home = resolveHome(io.env);
        print(io, values.json === true, { ...report, appAnswers: answering, home }, () =>
          [t('service.statusService', { line: serviceStatusLine(t, report) }), t(answering ? 'service.statusAppRunning' : 'service.statusAppNotAnswering', { home })].join('\n'),
        );
      } else {
        throw refusal('service.unknownAction', { action: String(action) });
      }
    } catch (error) {
      if (error instanceof ServiceFailure) throw new CliError(error.said);
      if (isProblem(error, 'service_failed')) throw new CliError(error.message);
      throw error;
    }
    return 0;
  },
};

const installCli: Command = {
  usage: 'tock install-cli [--remove] [--json]',
  async run(args, io) {
    const { values } = flags(args, { remove: { type: 'boolean' } });
    const context = { platform: process.platform, env: io.env, node: process.execPath, cli: TOCK_CLI_PATH };
    try {
      const report = values.remove ? removeLauncher(context) : installLauncher(context);
      print(io, values.json === true, report, () => launcherLine(messagesOf(io), report));
    } catch (error) {
      if (error instanceof ServiceFailure) throw new CliError(error.said);
      if (isProblem(error, 'service_failed')) throw new CliError(error.message);
      throw error;
    }
    return 0;
  },
};

/** The desktop commands, by name. */
export const desktopCommands: Record<string, Command> = { idle, continue: continueCommand, open, service, 'install-cli': installCli };
