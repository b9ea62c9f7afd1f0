/** The shapes the window's API sends (see packages/app/src/ui/api.ts). */

export interface ActivityRef {
  activityID: string;
  activityName: string;
}

export interface Status {
  isTracking: boolean;
  isOnBreak: boolean;
  currentActivity: ActivityRef | null;
  todaySeconds: number;
  since: string | null;
  sessionSeconds: number | null;
}

export interface ListenerStatus {
  enabled: boolean;
  port: number;
  state: 'off' | 'active' | 'error';
  line: string;
  credentialStore: string;
}

export interface TokenView {
  exists: boolean;
  store: string;
  kind: 'os' | 'file';
  error: string | null;
}

export interface RequestRecord {
  time: string;
  method: string;
  path: string;
  status: number;
}

export interface LicenseInfo {
  state: 'trial' | 'licensed' | 'locked';
  licensee: string | null;
  expires: string | null;
  daysLeft: number | null;
  trialEnds: string;
}

export interface Prompt {
  promptID: string;
  branch: string;
  repo: string | null;
  previousBranch: string | null;
  receivedAt: string;
  suggestions: ActivityRef[];
}

export interface BreakSpan {
  startedAt: string;
  endedAt: string | null;
}

export interface Block {
  id: string;
  kind: 'session' | 'entry';
  activity: ActivityRef;
  startedAt: string;
  endedAt: string | null;
  seconds: number;
  note: string | null;
  durationMinutes: number | null;
  breaks: BreakSpan[];
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
}

export interface FieldProblem {
  field: string;
  message: string;
}

export interface Entry {
  entryID: string;
  activity: ActivityRef;
  created: boolean;
  startedAt: string;
  endedAt: string;
  durationMinutes: number;
  note: string | null;
}
