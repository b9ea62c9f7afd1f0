/**
 * `tock watch` (docs/integrations.md): one status line at once, after every change of the
 * status, and once a minute while tracking, for status bars that read a command's lines
 * (waybar, polybar, i3blocks, tmux). The changes come through the tracking port
 * (tracking-port.ts): the admin socket's long poll `POST /status/next`, or with
 * `SERVICE_TOKEN` / `--listener` the listener's signed event stream. It runs until
 * interrupted: when the app or the listener goes away it prints an `offline` line and keeps
 * trying, with the stream's reconnect delays, so a bar survives the app restarting and the
 * listener being turned off and on.
 */
import { EVENT_LIMITS } from '@tock/protocol';
import { flags, LISTENER_FLAG } from './flags.ts';
import type { Command } from './command.ts';
import { messagesOf, refusal, type Io } from './io.ts';
import { barState, checkTemplate, DEFAULT_TEMPLATE, renderStatusLine, waybarLine, type ReceivedStatus } from './status-line.ts';
import { trackingPort, type TrackingPort } from './tracking-port.ts';

/** What `watch` needs from the world; tests pass their own clock, timers and stop signal. */
export interface WatchDeps {
  /** Resolves after `ms`, or at once when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** Ends the watch (Ctrl+C). */
  signal: AbortSignal;
}

/** A minute, the tick of a tracking bar: `{elapsed}` and `{today}` show minutes. */
const TICK_MS = 60_000;

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Watches until `deps.signal` aborts. Each stream is opened without the client's own
 * reconnect, so a drop is seen here and shown as `offline` before the next attempt.
 */
export async function watch(io: Io, options: { template: string; json: boolean; listener?: boolean }, deps: WatchDeps): Promise<void> {
  // What the bar shows: the last status (null while offline) and why it is offline.
  const shown: { received: ReceivedStatus | null; offlineReason?: string | undefined } = { received: null };
  let last = '';
  const print = (): void => {
    const now = io.now();
    const t = messagesOf(io);
    const line = options.json ? waybarLine(options.template, shown.received, now, shown.offlineReason, t) : renderStatusLine(options.template, shown.received, now, t);
    // A bar redraws on every line; an unchanged line after a reconnect is not news. A break or
    // a resume is, even when the template shows neither {state} nor {break}.
    const key = `${barState(shown.received)}\n${line}`;
    if (key !== last) io.out(line);
    last = key;
  };

  // The minute tick runs beside the stream; it prints only while something is being tracked.
  const ticking = (async () => {
    while (!deps.signal.aborted) {
      await deps.sleep(TICK_MS, deps.signal);
      if (!deps.signal.aborted && shown.received?.status.isTracking && !shown.received.status.isOnBreak) print();
    }
  })();

  let delay: number = EVENT_LIMITS.reconnectInitialMs;
  while (!deps.signal.aborted) {
    let port: TrackingPort | null = null;
    try {
      port = trackingPort(io, { listener: options.listener === true });
      for await (const status of port.follow(deps.signal)) {
        delay = EVENT_LIMITS.reconnectInitialMs;
        shown.offlineReason = undefined;
        shown.received = { status, receivedAt: io.now() };
        print();
      }
      if (deps.signal.aborted) break;
      shown.offlineReason = 'the stream ended (the app stopped or the listener moved)';
    } catch (error) {
      if (deps.signal.aborted) break;
      shown.offlineReason = port === null ? reason(error) : reason(port.explain(error));
    }
    shown.received = null;
    print();
    await deps.sleep(delay, deps.signal);
    delay = Math.min(delay * 2, EVENT_LIMITS.reconnectMaxMs);
  }
  await ticking;
}

/** Why the bar is offline, as the one line `tock` prints for the same failure. */
function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `tock watch [--format TEMPLATE] [--json]`: runs until SIGINT/SIGTERM. */
export const watchCommand: Command = {
  usage: 'tock watch [--format TEMPLATE] [--listener] [--json]   (TEMPLATE: {state} {activity} {break} {elapsed} {today} {todaySeconds})',
  async run(args, io) {
    const { values } = flags(args, { format: { type: 'string' }, ...LISTENER_FLAG });
    const template = (values['format'] as string | undefined) ?? DEFAULT_TEMPLATE;
    const listener = values['listener'] === true;
    const problem = checkTemplate(template);
    if (problem !== null) throw refusal('error.unknownPlaceholder', problem);
    // A missing token or a bad port will not fix itself: say so once instead of printing offline forever.
    trackingPort(io, { listener });
    const stop = new AbortController();
    const onSignal = (): void => stop.abort();
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    try {
      await watch(io, { template, json: values.json === true, listener }, { sleep: abortableSleep, signal: stop.signal });
    } finally {
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
    }
    return 0;
  },
};
