/**
 * Capture's shapes (docs/data.md "Capture", "Capture settings"; docs/desktop.md "Suggestions"):
 * a captured span and a day's timeline, the capture settings, and a suggestion rule and its
 * test. Declarations only, reaching no Node module, so the window's contract
 * (`@tock/core/shapes`) imports them too; capture.ts, capture-settings.ts, suggestions.ts,
 * capture-rules.ts and day-suggestions.ts work with them.
 */

import type { SuggestionSource } from '@tock/protocol';
import type { DayKey } from '../day.ts';

/**
 * Where a span came from (`calendar`: a meeting, made for suggestions only, never stored;
 * docs/calendar.md; `browser`: the WakaTime browser extension's pages, the domain only).
 */
export type SpanSource = 'window' | 'editor' | 'browser' | 'idle' | 'excluded' | 'calendar';

/** A span as the timeline gives it (docs/cli.md "tock timeline"): absent fields are null. */
export interface CaptureSpan {
  start: string;
  end: string;
  source: SpanSource;
  app: string | null;
  title: string | null;
  project: string | null;
  branch: string | null;
  language: string | null;
  entity: string | null;
  editor: string | null;
  machine: string | null;
}

/** A day's captured spans: `{date, timeZone, spans}` as `tock timeline --json` prints it. */
export interface Timeline {
  date: DayKey;
  timeZone: string;
  spans: CaptureSpan[];
}

/** The capture settings, with every default filled in. */
export interface CaptureSettings {
  /** Whether the focused window is recorded (off by default). */
  windows: boolean;
  /** Whether a window's title is kept with its application (off by default). */
  titles: boolean;
  /** Heartbeats and spans older than this many days are deleted daily: 1–3650. */
  retentionDays: number;
  /** Case-insensitive globs (`*`, `?`) on the application and the title: a match is kept as `excluded`. */
  exclude: string[];
  /** Minutes: heartbeats of one project and branch at most this far apart make one editor span. */
  editorTimeout: number;
  /** Minutes: suggestions join pieces with one label across at most this much untracked time (docs/desktop.md "Suggestions"). */
  mergeGapMinutes: number;
  /** Minutes: shorter suggestions are not made. */
  minMinutes: number;
}

/** The span fields a rule can match, each a case-insensitive glob (`*`, `?`). */
export const RULE_FIELDS = ['source', 'app', 'title', 'project', 'branch', 'language', 'entity'] as const;
export type RuleField = (typeof RULE_FIELDS)[number];

/** What a rule matches: every field given must match (docs/desktop.md "Suggestions"). */
export type RuleMatch = Partial<Record<RuleField, string>>;

/** A rule: spans its `match` matches are labelled `activity` (a name; created on accept when new). */
export interface SuggestionRule {
  id: string;
  match: RuleMatch;
  activity: string;
}

/** What a rule would label over some days: seconds per day and the sources, most seconds first (at most 20). */
export interface RuleTest {
  ruleID: string | null;
  match: RuleMatch;
  activity: string;
  /** The days looked at, oldest first, with the seconds the rule labels on each. */
  days: { date: DayKey; seconds: number }[];
  seconds: number;
  sources: SuggestionSource[];
}

