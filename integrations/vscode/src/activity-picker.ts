/**
 * The activity picker of "Tock: Start Activity…" and "Tock: Log Time…": a quick pick fed by
 * the listener's search as the person types (most recently used first on an empty query),
 * with an item to create what was typed when no activity has that name. Search rules:
 * docs/protocol.md "Endpoints" (`GET /activities/search`).
 */
import type { ActivityRef, TockClient } from '@tock/client';
import type { EditorWindow, QuickPickItem } from './editor.ts';
import type { Explanation } from './explain.ts';
import type { Scheduler } from './scheduler.ts';
import { escapeIcons } from './status-view.ts';
import { type ExtensionMessages, extensionMessages } from './i18n/index.ts';

/** What the person picked: an activity that exists, or a name to create. */
export type PickedActivity = { kind: 'existing'; activity: ActivityRef } | { kind: 'create'; name: string };

/** A row of the picker; rows without `choice` (a search error) cannot be picked. */
export interface ActivityItem extends QuickPickItem {
  choice: PickedActivity | undefined;
}

/** How long typing must pause before the picker searches, ms. */
const SEARCH_DEBOUNCE_MS = 150;
/** How many activities the picker lists. */
const SEARCH_LIMIT = 20;

/** What the picker shows and knows. */
export interface PickActivityOptions {
  window: Pick<EditorWindow, 'createQuickPick'>;
  client: TockClient;
  scheduler: Scheduler;
  explain: (error: unknown) => Explanation;
  /** The picker's title, e.g. "Tock: Start Activity". */
  title: string;
  placeholder: string;
  /** The messages of the picker's own rows (English when not given). */
  messages?: ExtensionMessages | undefined;
  /** The activity being tracked, marked in the list (and how). */
  current?: { activityID: string; description: string } | undefined;
}

/** Whether two activity names are the same name to Tock (case-insensitive after NFC). */
export function sameActivityName(a: string, b: string): boolean {
  return a.trim().normalize('NFC').toLowerCase() === b.trim().normalize('NFC').toLowerCase();
}

/**
 * The rows for a search `query` and its results: the results in the listener's order (best
 * first), then — when `query` names no listed activity — "Create …". The create row comes last
 * so that Enter on a partly typed name picks the best match rather than creating a near-copy.
 * Every row is `alwaysShow`: the listener has already matched (accent-insensitively, which the
 * editor's own filter is not), so the editor must not hide any.
 */
export function activityItems(query: string, results: readonly ActivityRef[], current?: PickActivityOptions['current'], t: ExtensionMessages = extensionMessages()): ActivityItem[] {
  const items: ActivityItem[] = results.map((activity) => ({
    label: escapeIcons(activity.activityName),
    description: activity.activityID === current?.activityID ? current.description : undefined,
    alwaysShow: true,
    choice: { kind: 'existing', activity },
  }));
  const name = query.trim();
  if (name !== '' && !results.some((a) => sameActivityName(a.activityName, name))) {
    items.push({ label: t('picker.create', { activity: escapeIcons(name) }), description: t('picker.create.description'), alwaysShow: true, choice: { kind: 'create', name } });
  }
  return items;
}

/**
 * Shows the picker and resolves with what was picked, or `undefined` when it was dismissed.
 * Searches at once for the empty query, then `SEARCH_DEBOUNCE_MS` after typing stops; an
 * answer to an older query than the one typed last is dropped.
 */
export function pickActivity(options: PickActivityOptions): Promise<PickedActivity | undefined> {
  const { client, scheduler } = options;
  const pick = options.window.createQuickPick<ActivityItem>();
  pick.title = options.title;
  pick.placeholder = options.placeholder;
  pick.matchOnDescription = false; // rows come matched by Tock; descriptions are ours ("tracking now")
  let generation = 0;
  let cancelPending: (() => void) | undefined;

  const search = async (query: string): Promise<void> => {
    const mine = ++generation;
    pick.busy = true;
    let items: ActivityItem[];
    try {
      const results = await client.searchActivities(query.trim(), { limit: SEARCH_LIMIT });
      items = activityItems(query, results, options.current, options.messages);
    } catch (error) {
      const problem: ActivityItem = { label: `$(warning) ${options.explain(error).message}`, alwaysShow: true, choice: undefined };
      items = [problem, ...activityItems(query, [], options.current, options.messages)];
    }
    if (mine !== generation) return;
    pick.items = items;
    pick.busy = false;
  };

  return new Promise((resolve) => {
    let settled = false;
    const finish = (picked: PickedActivity | undefined): void => {
      if (settled) return;
      settled = true;
      cancelPending?.();
      generation++;
      for (const subscription of subscriptions) subscription.dispose();
      pick.dispose();
      resolve(picked);
    };
    const subscriptions = [
      pick.onDidChangeValue((value) => {
        cancelPending?.();
        generation++; // an answer still on its way is for text no longer typed
        // Show "Create …" at once for what was typed; the results follow the pause.
        const shown = pick.items.flatMap((item) => (item.choice?.kind === 'existing' ? [item.choice.activity] : []));
        pick.items = activityItems(value, shown, options.current, options.messages);
        pick.busy = true;
        cancelPending = scheduler.setTimeout(() => void search(value), SEARCH_DEBOUNCE_MS);
      }),
      pick.onDidAccept(() => {
        const choice = pick.selectedItems[0]?.choice ?? pick.activeItems[0]?.choice;
        if (choice !== undefined) finish(choice);
      }),
      pick.onDidHide(() => finish(undefined)),
    ];
    pick.show();
    void search('');
  });
}
