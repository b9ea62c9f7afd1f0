/**
 * Suggestions in the app (docs/desktop.md "Suggestions"): core's use cases bound to the store,
 * the clock, the zone and capture's timeline (which holds the window source's open span), for
 * the listener (`GET /suggestions`, `POST /suggestions/accept`), the admin socket (`tock
 * suggest`, `tock rules`) and the window. Every write tells the app's change listeners.
 */
import {
  acceptAllSuggestions,
  acceptSuggestion,
  addRule,
  checkRule,
  daySuggestions,
  dismissSuggestion,
  editRule,
  listRules,
  newRowId,
  removeRule,
  systemTimeZone,
  testRule,
  type AcceptSuggestionInput,
  type NewId,
  type NewRule,
  type RuleTest,
  type Store,
  type SuggestionContext,
  type SuggestionRule,
} from '@tock/core';
import { Problem, ruleLine, type Entry, type Suggestion, type Suggestions as DaySuggestions } from '@tock/protocol';
import { AdminError } from './admin.ts';
import type { Capture } from '@tock/desktop';

/** At most this many days back for a rule's preview. */
export const RULE_TEST_MAX_DAYS = 31;

/** What the app offers of suggestions and rules. */
export interface SuggestionsService {
  /** A local day's suggestions (default today). */
  day(date?: string): DaySuggestions;
  /** Accepts one: the `POST /entries` result. */
  accept(input: AcceptSuggestionInput): Entry;
  /** Accepts every labelled suggestion of a day (default today). */
  acceptAll(date?: string): Entry[];
  /** Dismisses one for good; the suggestion it was. */
  dismiss(id: string): Suggestion;
  rules(): SuggestionRule[];
  addRule(input: NewRule): SuggestionRule;
  editRule(id: string, input: Partial<NewRule>): SuggestionRule;
  /** Removes a rule; `rule_not_found` when there is none with that id (both doors, one wording). */
  removeRule(id: string): { removed: string };
  /**
   * What a listed rule (by id; `rule_not_found` when none) or one being written (checked as a
   * saved one is, naming the field; no activity yet: "(this rule)") would label over the last
   * `days` days (7).
   */
  testRule(rule: string | RuleBeingWritten, days?: number): RuleTest;
}

/** What {@link createSuggestions} needs. */
export interface SuggestionsOptions {
  store: Store;
  capture: Pick<Capture, 'openSpans'>;
  clock: () => number;
  timeZone?: () => string;
  newId?: () => string;
  onChange?: () => void;
  /** The meetings of a stretch of time as `calendar` spans (docs/calendar.md). */
  meetings?: SuggestionContext['meetings'];
}

/** A rule being tried before it is saved: its patterns as sent, its activity when given. */
export interface RuleBeingWritten {
  match?: Record<string, unknown> | null;
  activity?: string | null;
}

/** What a rule tried without an activity labels its time as. */
const UNNAMED_RULE = '(this rule)';

/** The one refusal of a rule id that names none, for both doors (the CLI words the code itself). */
function noRule(id: string): Problem {
  return new Problem('rule_not_found', `no rule ${id}; it may have been removed already`, { field: 'id' });
}

/** Binds core's suggestion use cases to the app's store, clock, zone and capture. */
export function createSuggestions(options: SuggestionsOptions): SuggestionsService {
  const { store } = options;
  const context = (): SuggestionContext & { newId: NewId } => ({
    timeZone: options.timeZone?.() ?? systemTimeZone(),
    nowMs: options.clock(),
    open: options.capture.openSpans(),
    ...(options.meetings ? { meetings: options.meetings } : {}),
    newId: options.newId ?? newRowId,
  });
  const changed = <T>(value: T): T => {
    options.onChange?.();
    return value;
  };
  return {
    day: (date) => daySuggestions(store, date, context()),
    accept: (input) => changed(acceptSuggestion(store, input, context())),
    acceptAll: (date) => changed(acceptAllSuggestions(store, date, context())),
    dismiss: (id) => changed(dismissSuggestion(store, id, context())),
    rules: () => listRules(store.settings),
    addRule: (input) => changed(addRule(store.settings, input)),
    editRule: (id, input) => changed(editRule(store.settings, id, input)),
    removeRule(id) {
      if (!removeRule(store.settings, id)) throw noRule(id);
      return changed({ removed: id });
    },
    testRule(rule, days = 7) {
      if (!Number.isInteger(days) || days < 1 || days > RULE_TEST_MAX_DAYS) throw new AdminError(...ruleLine('days', { rule: 'ruleTestDays', values: { max: RULE_TEST_MAX_DAYS } }));
      let tried: SuggestionRule | Omit<SuggestionRule, 'id'>;
      if (typeof rule === 'string') {
        const found = listRules(store.settings).find((r) => r.id === rule);
        if (found === undefined) throw noRule(rule);
        tried = found;
      } else {
        tried = checkRule({ match: rule.match ?? {}, activity: rule.activity === undefined || rule.activity === null || rule.activity === '' ? UNNAMED_RULE : rule.activity });
      }
      return testRule(store, tried, days, context());
    },
  };
}
