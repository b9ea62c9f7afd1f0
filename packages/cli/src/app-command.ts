/**
 * `tock app` (docs/cli.md "The contract"), a module of its own: the command a desktop session
 * starts and keeps running, so its start-up imports this and the app, not the other commands
 * (commands.ts).
 */
import { resolveHome, type AdminResult } from '@tock/admin';
import { isProblem } from '@tock/protocol';
import type { Command } from './command.ts';
import { flags } from './flags.ts';
import type { CliMessages } from './i18n/index.ts';
import { CliError, messagesOf } from './io.ts';
import { canOpenWindow } from './window.ts';

/** The listener's status line: its state in the person's language; an error as the app said it. */
export function listenerLine(t: CliMessages, status: AdminResult<'GET /listener'>): string {
  if (status.state === 'off') return t('listener.off');
  if (status.state === 'active') return t('listener.active', { port: String(status.port) });
  if (status.error?.code === 'port_in_use') return t('listener.portInUse', { port: String(status.port) });
  if (status.error?.code === 'not_started') return t('listener.notStarted');
  return status.error ? t('listener.failed', { reason: status.error.reason }) : status.line;
}

/**
 * `tock app`: runs the application in the foreground until SIGINT/SIGTERM. `--background` is
 * how the service runs it: no window, and no launch code in its output, which a journal or log
 * file keeps (docs/desktop.md "Start at login"); `tock open` opens windows.
 */
export const appCommand: Command = {
  usage: 'tock app [--no-open | --background]',
  async run(args, io) {
    const { values } = flags(args, { 'no-open': { type: 'boolean' }, background: { type: 'boolean' } });
    const background = values.background === true;
    const home = resolveHome(io.env);
    // Handlers first, before the app's modules load: a supervisor may signal the instant it
    // reads the ready line or while the app is still starting, and an unhandled SIGTERM kills
    // the process by the signal instead of a clean exit.
    let stopping = false;
    const stopRequested = new Promise<void>((resolve) => {
      const stop = (): void => {
        process.removeListener('SIGINT', stop);
        process.removeListener('SIGTERM', stop);
        stopping = true;
        resolve();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    // Loaded here, not at the top: every other command stays quick to start.
    const { startApp } = await import('@tock/app/start');
    const t = messagesOf(io);
    if (stopping) {
      // Asked to stop before anything was opened: nothing to close, nothing to start.
      io.out(t('app.stopped'));
      return 0;
    }
    let running: Awaited<ReturnType<typeof startApp>>;
    try {
      running = await startApp({ home, env: io.env });
    } catch (error) {
      // A problem (the credential store's, …) keeps its code and reason for the error line to word.
      if (isProblem(error)) throw error;
      throw new CliError(error instanceof Error ? error.message : String(error));
    }
    io.out(t('app.running', { home }));
    io.out(background ? t('app.windowHint') : t('app.open', { url: running.uiUrl }));
    // No window for an app asked to stop while it started: it would open on a closed server.
    if (!background && !values['no-open'] && !stopping && canOpenWindow(io.env)) {
      // The browser gets a launch file's path, never the address with its code (docs/ui.md "Security decisions").
      const { openInBrowser } = await import('@tock/app/open');
      openInBrowser(running.launchFile(), io.env);
    }
    io.out(t('app.listener', { line: listenerLine(t, running.services.listener.status()) }));
    io.out(t('app.pressCtrlC'));
    await stopRequested;
    await running.stop();
    io.out(t('app.stopped'));
    return 0;
  },
};
