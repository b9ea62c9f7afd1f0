/**
 * What the running app offers its windows and admin commands, as a type only: the route modules
 * name it from here, so none of them imports app.ts (which imports them) — no import circle.
 */
import type { Store, Tracker } from '@tock/core';
import type { RequestRecord } from '@tock/listener';
import type { SyncService } from '@tock/sync';
import type { BackupKeeper } from './backups.ts';
import type { Calendars } from './calendar/calendars.ts';
import type { ChangeBus } from './change-bus.ts';
import type { CredentialStoreKind } from './credentials.ts';
import type { Capture, Desktop } from '@tock/desktop';
import type { Editors } from './editors/editors.ts';
import type { HomePaths } from './home.ts';
import type { License } from './license.ts';
import type { ListenerControl } from './listener-control.ts';
import type { PromptQueue } from './prompts.ts';
import type { SuggestionsService } from './suggestions.ts';
import type { TokenKeeper } from './tokens.ts';

/** Everything the running app offers to its windows and admin commands. */
export interface AppServices {
  readonly home: HomePaths;
  readonly tracker: Tracker;
  readonly store: Store;
  readonly listener: ListenerControl;
  readonly tokens: TokenKeeper;
  readonly license: License;
  readonly prompts: PromptQueue;
  /** Idle time, the reminder, continuing, and their settings (docs/desktop.md). */
  readonly desktop: Desktop;
  /** Sync through a folder (docs/sync.md). */
  readonly sync: SyncService;
  /** Editors' WakaTime plugins: the editor key, ~/.wakatime.cfg, the last heartbeats (docs/integrations.md). */
  readonly editors: Editors;
  /** What the person did, kept on this machine: spans, the window sources, the timeline (docs/desktop.md "Capture"). */
  readonly capture: Capture;
  /** Suggestions over untracked time and the rules that label them (docs/desktop.md "Suggestions"). */
  readonly suggestions: SuggestionsService;
  /** The person's calendar files, whose meetings suggestions see (docs/calendar.md). */
  readonly calendars: Calendars;
  /** Backups on request and once a day (docs/data.md "Backup and restore"). */
  readonly backups: BackupKeeper;
  readonly clock: () => number;
  /** The environment the app was started with: the setting `language`'s `"system"` (`LC_ALL`, `LC_MESSAGES`, `LANG`) and the week's region are read here, never from the process's. */
  readonly env: NodeJS.ProcessEnv;
  /** The last 25 listener requests, newest first. */
  requests(): RequestRecord[];
  /** Switches the token to another credential store and remembers the choice; `renewed`: the old store could not be read, so a new token was made. */
  setCredentialStore(kind: CredentialStoreKind): { renewed: boolean };
  /** Every change, pushed: the store's committed writes, tracking, prompts, the desktop, the listener, sync (change-bus.ts). */
  readonly changes: ChangeBus;
}
