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
import { isLocalDate, type Entry, type Suggestion, type Suggestions as DaySuggestions } from '@tock/protocol';
import { AdminError, type AdminHandler } from './admin.ts';
import type { Capture } from './desktop/capture/capture.ts';

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
}

/** Binds core's suggestion use cases to the app's store, clock, zone and capture. */
export function createSuggestions(options: SuggestionsOptions): SuggestionsService {
  const { store } = options;
  const context = (): SuggestionContext & { newId: () => string } => ({
    timeZone: options.timeZone?.() ?? systemTimeZone(),
    nowMs: options.clock(),
    open: options.capture.openSpans(),
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

function optionalDay(input: Record<string, unknown>): string | undefined {
  const value = input.date;
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || !isLocalDate(value)) throw new AdminError(`a day is YYYY-MM-DD, not "${String(value)}"`);
  return value;
}

function requiredId(input: Record<string, unknown>, what: string): string {
  if (typeof input.id !== 'string' || input.id === '') throw new AdminError(`give the ${what}'s id`);
  return input.id;
}

function optionalString(input: Record<string, unknown>, field: string): string | undefined {
  const value = input[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The admin routes of `tock suggest` and `tock rules` (docs/cli.md "tock suggest", "tock rules"). */
export function suggestionsAdminRoutes(suggestions: SuggestionsService): Record<string, AdminHandler> {
  return {
    'POST /suggestions': (input) => suggestions.day(optionalDay(input)),
    'POST /suggestions/accept': (input) => {
      if (input.all === true) return { entries: suggestions.acceptAll(optionalDay(input)) };
      return suggestions.accept({
        id: requiredId(input, 'suggestion'),
        activityName: optionalString(input, 'activityName'),
        start: optionalString(input, 'start'),
        end: optionalString(input, 'end'),
      });
    },
    'POST /suggestions/dismiss': (input) => suggestions.dismiss(requiredId(input, 'suggestion')),
    'GET /rules': () => suggestions.rules(),
    'POST /rules/add': (input) =>
      suggestions.addRule({ match: (input.match ?? {}) as Record<string, unknown>, activity: input.activity, at: typeof input.at === 'number' ? input.at : undefined }),
    'POST /rules/edit': (input) =>
      suggestions.editRule(requiredId(input, 'rule'), {
        ...(input.match === undefined ? {} : { match: input.match as Record<string, unknown> }),
        ...(input.activity === undefined ? {} : { activity: input.activity }),
        ...(typeof input.at === 'number' ? { at: input.at } : {}),
      }),
    'POST /rules/remove': (input) => {
      const id = requiredId(input, 'rule');
      if (!suggestions.removeRule(id)) throw new AdminError(`no rule ${id} (tock rules list shows them)`);
      return { removed: id };
    },
    'POST /rules/test': (input) => {
      const days = input.days === undefined || input.days === null ? undefined : Number(input.days);
      const rule = typeof input.id === 'string' && input.id !== '' ? input.id : { match: (input.match ?? {}) as SuggestionRule['match'], activity: String(input.activity ?? '(this rule)') };
      return suggestions.testRule(rule, days);
    },
  };
}
