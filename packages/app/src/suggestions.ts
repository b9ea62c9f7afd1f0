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
  daySuggestions,
  dismissSuggestion,
  editRule,
  listRules,
  removeRule,
  systemTimeZone,
  testRule,
  type AcceptSuggestionInput,
  type NewRule,
  type RuleTest,
  type Store,
  type SuggestionContext,
  type SuggestionRule,
} from '@tock/core';
import type { Entry, Suggestion, Suggestions as DaySuggestions } from '@tock/protocol';
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
  /** False when there was no rule with that id. */
  removeRule(id: string): boolean;
  /** What a listed rule (by id) or one being written would label over the last `days` days (7). */
  testRule(rule: string | Omit<SuggestionRule, 'id'>, days?: number): RuleTest;
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

/** Binds core's suggestion use cases to the app's store, clock, zone and capture. */
export function createSuggestions(options: SuggestionsOptions): SuggestionsService {
  const { store } = options;
  const context = (): SuggestionContext & { newId: () => string } => ({
    timeZone: options.timeZone?.() ?? systemTimeZone(),
    nowMs: options.clock(),
    open: options.capture.openSpans(),
    ...(options.meetings ? { meetings: options.meetings } : {}),
    newId: options.newId ?? (() => crypto.randomUUID()),
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
    removeRule: (id) => changed(removeRule(store.settings, id)),
    testRule(rule, days = 7) {
      if (!Number.isInteger(days) || days < 1 || days > RULE_TEST_MAX_DAYS) throw new AdminError(`--days takes a whole number from 1 to ${RULE_TEST_MAX_DAYS}`);
      let tried: SuggestionRule | Omit<SuggestionRule, 'id'>;
      if (typeof rule === 'string') {
        const found = listRules(store.settings).find((r) => r.id === rule);
        if (found === undefined) throw new AdminError(`no rule ${rule} (tock rules list shows them)`);
        tried = found;
      } else {
        tried = rule;
      }
      return testRule(store, tried, days, context());
    },
  };
}
