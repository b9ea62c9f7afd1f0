/**
 * The shapes the window's API sends (see packages/app/src/ui/api.ts). Wire and domain types
 * come from their packages, and the app's views from its Node-free type modules
 * (`@tock/app/views`): type-only imports, erased by the build. The rest are the window
 * API's own views.
 */
import type { DesktopView, LicenseInfo, ListenerStatus, PromptView as Prompt, StatusView as Status, SyncStatus, TokenView } from '@tock/app/views';
import type { ActivityRef } from '@tock/protocol';

export type { ActivityRef, Entry, FieldProblem } from '@tock/protocol';
export type { Block, BreakSpan } from '@tock/core/blocks';
export type {
  DesktopSettings,
  DesktopView,
  IdleQuestion,
  LicenseInfo,
  ListenerStatus,
  PromptView as Prompt,
  StatusView as Status,
  SyncStatus,
  TokenView,
} from '@tock/app/views';

/** An activity as `/api/activities/all` lists it. */
export interface ActivityInfo extends ActivityRef {
  createdAt: string;
  lastUsedAt: string;
}

export interface RequestRecord {
  time: string;
  method: string;
  path: string;
  status: number;
}

/** A session another device runs now (`GET /api/sync/running`). */
export interface RunningElsewhere {
  sessionID: string;
  deviceID: string;
  activity: ActivityRef;
  startedAt: string;
  note: string | null;
  onBreak: boolean;
  seconds: number;
}

export interface DailyTotal {
  day: string;
  activityID: string;
  activityName: string;
  seconds: number;
}

export interface Snapshot {
  appVersion: string;
  timeZone: string;
  now: string;
  status: Status;
  listener: ListenerStatus;
  token: TokenView;
  requests: RequestRecord[];
  license: LicenseInfo;
  prompts: Prompt[];
  desktop: DesktopView;
  sync: SyncStatus;
}
