/**
 * What the window shows that the app composes for it: the status with the running session's
 * worked seconds, whether a token exists (never the token), the branch prompts with the
 * activities that match their branch, and the snapshot a window draws itself from at once.
 */
import { isProblem, type ActivityRef } from '@tock/protocol';
import { readLanguage, systemTimeZone, type Store, type Tracker } from '@tock/core';
import type { RequestRecord } from '@tock/listener';
import type { SyncService } from '@tock/sync';
import { resolveLanguage } from '@tock/i18n';
import type { Desktop } from '@tock/desktop';
import type { License } from '../license.ts';
import type { ListenerControl } from '../listener-control.ts';
import { personDays } from '../person-days.ts';
import type { PromptQueue } from '../prompts.ts';
import type { TokenKeeper } from '../tokens.ts';
import type { PromptView, StatusView, TokenView } from '../views.ts';
import { APP_VERSION } from '@tock/admin/version';
import type { Snapshot } from '@tock/window/contract';

const SUGGESTIONS = 5;

/** What the window's views read of the app; each view takes only the part it reads. */
export interface WindowViewDeps {
  readonly tracker: Tracker;
  readonly prompts: PromptQueue;
  readonly tokens: TokenKeeper;
  readonly clock: () => number;
  readonly listener: ListenerControl;
  readonly license: License;
  readonly desktop: Desktop;
  readonly sync: SyncService;
  readonly store: Store;
  /** The app's environment: the setting `language`'s `"system"` and the week's region. */
  readonly env: NodeJS.ProcessEnv;
  requests(): RequestRecord[];
}

/**
 * The activities to offer for a branch: matches of the whole branch name, then of its last
 * path segment (`feature/login-page` → `login-page`), then of that segment in words
 * (`login page`: branches use dashes where activity names use spaces), without repeats.
 */
export function branchSuggestions(services: Pick<WindowViewDeps, 'tracker'>, branch: string): ActivityRef[] {
  const seen = new Set<string>();
  const out: ActivityRef[] = [];
  const segment = branch.split('/').filter(Boolean).pop() ?? branch;
  const words = segment.replace(/[-_.]+/g, ' ').trim();
  for (const q of new Set([branch, segment, words].filter(Boolean))) {
    for (const ref of services.tracker.searchActivities(q, SUGGESTIONS)) {
      if (seen.has(ref.activityID) || out.length >= SUGGESTIONS) continue;
      seen.add(ref.activityID);
      out.push(ref);
    }
  }
  return out;
}

/** Pending prompts, newest first, each with its suggestions. */
export function promptViews(services: Pick<WindowViewDeps, 'tracker' | 'prompts'>): PromptView[] {
  return services.prompts.pending().map((p) => ({ ...p, suggestions: branchSuggestions(services, p.branch) }));
}

/** Whether a token exists, without ever sending it. */
export function tokenView(services: Pick<WindowViewDeps, 'tokens'>): TokenView {
  const store = services.tokens.store;
  const where = { store: store.description, kind: store.kind, path: store.path ?? null, notice: store.notice ?? null };
  try {
    return { exists: services.tokens.read() !== null, ...where, error: null, errorBecause: null };
  } catch (error) {
    return { exists: false, ...where, error: error instanceof Error ? error.message : String(error), errorBecause: isProblem(error) ? (error.because ?? null) : null };
  }
}

/** The status with what the window's clock needs: the running session's worked seconds. */
export function statusView(services: Pick<WindowViewDeps, 'tracker' | 'clock'>): StatusView {
  const status = services.tracker.getStatus();
  let sessionSeconds: number | null = null;
  if (status.since !== null) {
    const now = services.clock();
    const running = services.tracker
      .listBlocks(Date.parse(status.since), now + 1)
      // This device's session: other devices' running ones are among the blocks too (sync).
      .find((b) => b.kind === 'session' && b.endedAt === null && b.device === undefined);
    sessionSeconds = running ? running.seconds : null;
  }
  return { ...status, sessionSeconds };
}

/** Everything a window needs to draw itself at once. */
export function snapshot(services: WindowViewDeps): Snapshot {
  return {
    appVersion: APP_VERSION,
    // "Today" is the app's day (TZ respected), not necessarily the browser's.
    timeZone: systemTimeZone(),
    now: new Date(services.clock()).toISOString(),
    status: statusView(services),
    listener: services.listener.status(),
    token: tokenView(services),
    requests: services.requests(),
    license: services.license.info(),
    prompts: promptViews(services),
    desktop: services.desktop.view(),
    sync: services.sync.status(),
    // The person's day and week, for Today, History's week and the Reports (person-days.ts).
    ...personDays(services.store.settings, services.env),
    // Read at each snapshot: a change of the setting reaches the window with the next one.
    language: resolveLanguage(readLanguage(services.store.settings), services.env),
  };
}
