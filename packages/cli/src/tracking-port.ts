/**
 * The tracking port of the person's own commands (docs/cli.md "Your own commands need no
 * token"): what `tock ping`, `current`, `status`, `search`, `start`, `stop`, `log`,
 * `branch-changed` and `watch` ask of Tock, with two ways to ask it that answer the same
 * protocol types — the admin socket (no token: the owner's socket is the permission) and the
 * listener (`SERVICE_TOKEN`, or `--listener`: how scripts and other programs use Tock). The
 * commands format one result whichever way it came, so their output is the same.
 *
 * Which one: `--listener` or a non-empty `SERVICE_TOKEN` chooses the listener, as before;
 * otherwise the admin socket of the app under `TOCK_HOME`.
 */
import { homePaths, resolveHome, AppNotRunningError, callAdmin, type AdminInput, type AdminResult, type AnsweredRoute } from '@tock/admin';
import {
  HttpError,
  NotFoundError,
  ReplayError,
  TockError,
  UnavailableError,
  ValidationError,
  type ActivityRef,
  type BranchChange,
  type BranchPrompt,
  type Entry,
  type Health,
  type LogEntryInput,
  type Report,
  type StartResult,
  type Status,
  type StoppedSession,
} from '@tock/client';
import { isProblem, PROBLEM_STATUS } from '@tock/protocol';
import { appNotRunning } from './admin-call.ts';
import { appRunsUnder, clientRefusal, connect, type RequestContext } from './client-connection.ts';
import { CliError, type Io } from './io.ts';
import { PortRefusal } from './rule-words.ts';

/** What the tracking commands ask; each answer is the listener's result type. */
export interface TrackingPort {
  /** `admin`: the app's admin socket; `listener`: the signed HTTP API. */
  readonly via: 'admin' | 'listener';
  /** Whether an app runs under the command's Tock home. */
  appRunning(): boolean;
  /** The health check, and the listener's port while it listens (null: it is off). */
  health(): Promise<{ health: Health; listenerPort: number | null }>;
  getCurrent(): Promise<ActivityRef | null>;
  getStatus(): Promise<Status>;
  searchActivities(query: string, limit?: number): Promise<ActivityRef[]>;
  startActivity(name: string, options: { createIfMissing: boolean; note?: string | undefined }): Promise<StartResult>;
  stopActivity(): Promise<StoppedSession | null>;
  logEntry(entry: LogEntryInput & { name: string }): Promise<Entry>;
  /** The report by activity of local days (`tock log`'s overlap warning). */
  getReport(days: { from: string; to: string }): Promise<Report>;
  notifyBranchChange(change: BranchChange): Promise<BranchPrompt>;
  /**
   * The status now, then each new one as it changes, until `signal` aborts or the connection
   * ends (it then returns, or throws why).
   */
  follow(signal: AbortSignal): AsyncIterable<Status>;
  /** The one line for a failure of this port's calls (`activityName`: the name the command asked for). */
  explain(error: unknown, activityName?: string): Error;
}

/** The port's calls, each failure turned into the CLI's one line. */
export async function ask<T>(port: TrackingPort, call: () => Promise<T>, activityName?: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw port.explain(error, activityName);
  }
}

/** The client's error class for an HTTP status, as @tock/client chooses it for the listener's answers. */
const CLIENT_ERROR_BY_STATUS: Readonly<Record<number, typeof TockError>> = {
  400: ValidationError,
  404: NotFoundError,
  409: ReplayError,
  503: UnavailableError,
};

/**
 * An admin refusal as the listener's client error: the same problem (code, message, fields)
 * with the status the listener would have answered, so it reads as the same line.
 */
export function asClientError(error: unknown): unknown {
  if (!isProblem(error)) return error;
  const status = PROBLEM_STATUS[error.code];
  const ErrorClass = CLIENT_ERROR_BY_STATUS[status] ?? HttpError;
  return new ErrorClass(error.message, { code: error.code, status, details: error.details });
}

/** The longest `tock watch` waits for an answer to one long poll: the app holds it 50 s at most. */
const FOLLOW_TIMEOUT_MS = 65_000;

/** The tracking port over the admin socket of the app under `env`'s Tock home. */
export function adminPort(env: NodeJS.ProcessEnv): TrackingPort {
  const home = resolveHome(env);
  const socket = homePaths(home).adminSocket;
  const call = <R extends AnsweredRoute>(route: R, input?: AdminInput<R>, options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<AdminResult<R>> =>
    callAdmin(socket, route, input, options);
  // The listener's port, for a line that names it (a 404's hint names none).
  let listenerPort = 0;
  const port: TrackingPort = {
    via: 'admin',
    appRunning: () => appRunsUnder(env),
    async health() {
      const answer = await call('GET /healthcheck');
      listenerPort = answer.listenerPort ?? 0;
      return answer;
    },
    getCurrent: () => call('GET /current'),
    getStatus: () => call('GET /status'),
    searchActivities: (q, limit) => call('POST /activities/search', { q, ...(limit === undefined ? {} : { limit }) }),
    startActivity: (name, { createIfMissing, note }) => call('POST /activities/start', { name, createIfMissing, ...(note === undefined ? {} : { note }) }),
    stopActivity: () => call('POST /activities/stop'),
    logEntry: (entry) =>
      call('POST /entries', {
        name: entry.name,
        durationMinutes: entry.durationMinutes,
        ...(entry.note === undefined ? {} : { note: entry.note }),
        ...(entry.createIfMissing === undefined ? {} : { createIfMissing: entry.createIfMissing }),
        ...(entry.tags === undefined ? {} : { tags: [...entry.tags] }),
        ...(entry.billable === undefined ? {} : { billable: entry.billable }),
      }),
    getReport: async (days) => (await call('GET /report', days)) as Report,
    notifyBranchChange: (change) =>
      call('POST /branch-changed', {
        branch: change.branch,
        ...(change.repo === undefined ? {} : { repo: change.repo }),
        ...(change.previousBranch === undefined ? {} : { previousBranch: change.previousBranch }),
      }),
    async *follow(signal) {
      let after: string | undefined;
      while (!signal.aborted) {
        const next = await call('POST /status/next', after === undefined ? {} : { after }, { timeoutMs: FOLLOW_TIMEOUT_MS, signal });
        if (next.version !== after) yield next.status;
        after = next.version;
      }
    },
    explain(error, activityName) {
      if (error instanceof AppNotRunningError) return appNotRunning(home);
      if (error instanceof CliError) return error;
      const context: RequestContext = { port: listenerPort, appRunning: () => true, activityName };
      const client = asClientError(error);
      if (client instanceof TockError) {
        const refused = clientRefusal(client, context);
        return refused.said === undefined ? new PortRefusal(refused.message, error) : refused;
      }
      return error instanceof Error ? error : new Error(String(error));
    },
  };
  return port;
}

/**
 * The tracking port over the listener, with `SERVICE_TOKEN` and `SERVICE_PORT` from `env`;
 * `byTokenAlone` when the token chose it, not `--listener` (a refused connection's hint).
 */
export function listenerPort(env: NodeJS.ProcessEnv, byTokenAlone = false): TrackingPort {
  const { client, port, appRunning } = connect(env);
  return {
    via: 'listener',
    appRunning,
    health: async () => ({ health: await client.healthcheck(), listenerPort: port }),
    getCurrent: () => client.getCurrent(),
    getStatus: () => client.getStatus(),
    searchActivities: (q, limit) => client.searchActivities(q, { limit }),
    startActivity: (name, options) => client.startActivity(name, options),
    stopActivity: () => client.stopActivity(),
    logEntry: (entry) => client.logEntry(entry),
    getReport: (days) => client.getReport(days),
    notifyBranchChange: (change) => client.notifyBranchChange(change),
    async *follow(signal) {
      // No Last-Event-ID: a bar wants the state now, and a fresh stream starts with it (a
      // resumed one would start with nothing when nothing happened while it was away).
      for await (const event of client.events({ signal, reconnect: false })) {
        if (event.type === 'status') yield event.data as Status;
      }
    },
    explain(error, activityName) {
      if (error instanceof TockError) return clientRefusal(error, { port, appRunning, activityName, byTokenAlone });
      return error instanceof Error ? error : new Error(String(error));
    },
  };
}

/**
 * The port a tracking command uses: the listener with `--listener` or a `SERVICE_TOKEN`,
 * otherwise the admin socket (docs/cli.md "Your own commands need no token").
 */
export function trackingPort(io: Pick<Io, 'env'>, options: { listener?: boolean } = {}): TrackingPort {
  const token = io.env['SERVICE_TOKEN'] ?? '';
  if (options.listener === true || token !== '') return listenerPort(io.env, options.listener !== true);
  return adminPort(io.env);
}
