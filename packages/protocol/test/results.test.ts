/**
 * The result types are derived from the result schemas (json-schema.ts's FromSchema over
 * results.ts). These are the shapes written out by hand, as the contract states them
 * (docs/protocol.md "Endpoints", "The event stream", "GET /report"): the derived types must
 * be exactly these, so a schema that drifts fails the type check (`npm test` runs tsc over
 * the tests) and the runtime checks below.
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  RESULT_SCHEMAS,
  type ActivityRef,
  type ActivityReportRow,
  type BranchPrompt,
  type DayReportRow,
  type Entry,
  type Health,
  type Budget,
  type Idle,
  type JsonSchema,
  type LicenseState,
  type Report,
  type ReportRow,
  type StartResult,
  type Status,
  type StoppedSession,
} from '../src/index.ts';

type ExpectedLicenseState = 'trial' | 'licensed' | 'locked';

interface ExpectedHealth {
  status: 'ok';
  apiVersion: 1;
  appVersion: string;
  license: ExpectedLicenseState;
}

interface ExpectedActivityRef {
  activityID: string;
  activityName: string;
}

interface ExpectedStatus {
  isTracking: boolean;
  isOnBreak: boolean;
  currentActivity: ExpectedActivityRef | null;
  todaySeconds: number;
  since: string | null;
}

interface ExpectedStartResult {
  activityID: string;
  activityName: string;
  created: boolean;
  startedAt: string;
}

interface ExpectedStoppedSession {
  activityID: string;
  activityName: string;
  startedAt: string;
  endedAt: string;
  seconds: number;
  /** False: shorter than `minSessionSeconds` without a note, so not kept. */
  kept: boolean;
}

interface ExpectedEntry {
  entryID: string;
  activity: ExpectedActivityRef;
  created: boolean;
  startedAt: string;
  endedAt: string;
  durationMinutes: number;
  note: string | null;
}

/**
 * The tracking prompt a reported branch switch opened: the answer of `POST /branch-changed`
 * and the data of a `branch-prompt` event (docs/protocol.md "The event stream"). `repo` and
 * `previousBranch` are null when the report had none.
 */
interface ExpectedBranchPrompt {
  promptID: string;
  branch: string;
  repo: string | null;
  previousBranch: string | null;
}

/** The data of an `idle` event: since when the user was idle while tracking, and for how long. */
interface ExpectedIdle {
  /** ISO time the idleness began. */
  since: string;
  /** Whole seconds idle so far. */
  seconds: number;
}

/** The data of a `budget` event: a threshold of an activity's budget passed, the first time. */
interface ExpectedBudget {
  activityID: string;
  activityName: string;
  usedSeconds: number;
  budgetSeconds: number;
  /** The threshold passed. */
  percent: 80 | 100;
}

/** A row of a report by activity: only activities with time, most seconds first, ties by name. */
/** What every report row says of billing (docs/protocol.md "GET /report"). */
interface ExpectedLedgerFields {
  billedSeconds: number;
  /** A decimal string, null where no rate applies or the row is billed in several currencies. */
  amount: string | null;
  currency: string | null;
  /** Each currency the row is billed in, sorted by code. */
  amounts: { currency: string; amount: string }[];
}

interface ExpectedActivityReportRow extends ExpectedLedgerFields {
  activityID: string;
  activityName: string;
  seconds: number;
}

/** A row of a report by client (`clientID` null: activities without a client). */
interface ExpectedClientReportRow extends ExpectedLedgerFields {
  clientID: string | null;
  clientName: string | null;
  seconds: number;
}

/** A row of a report by tag (`tag` null: blocks without a tag). */
interface ExpectedTagReportRow extends ExpectedLedgerFields {
  tag: string | null;
  seconds: number;
}

/** A row of a report by day: one per local day of the range, zeros included, ascending. */
interface ExpectedDayReportRow extends ExpectedLedgerFields {
  /** The local calendar day, YYYY-MM-DD. */
  date: string;
  seconds: number;
}

/** A row of a {@link ExpectedReport}: by activity or by day, as asked. */
type ExpectedReportRow = ExpectedActivityReportRow | ExpectedDayReportRow | ExpectedClientReportRow | ExpectedTagReportRow;

/** The result of `GET /report` (docs/protocol.md "GET /report"). */
interface ExpectedReport {
  /** First local day of the range, YYYY-MM-DD (inclusive). */
  from: string;
  /** Last local day of the range, YYYY-MM-DD (inclusive). */
  to: string;
  /** The IANA time zone the days are counted in: the app's. */
  timeZone: string;
  /** The covered time of the range, each second once (by day: the sum of the rows' seconds). */
  totalSeconds: number;
  /** The by-activity rows' sum minus `totalSeconds`: time two or more activities covered at once. */
  overlapSeconds: number;
  rows: ExpectedReportRow[];
  /** Per currency, never added across currencies. */
  amounts: { currency: string; amount: string }[];
  /** Null when no targets are set. */
  targetSeconds: number | null;
  balanceSeconds: number | null;
}


/** True when A and B are the same type (not merely assignable either way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

const derivedAsWritten: [
  Equal<LicenseState, ExpectedLicenseState>,
  Equal<Health, ExpectedHealth>,
  Equal<ActivityRef, ExpectedActivityRef>,
  Equal<Status, ExpectedStatus>,
  Equal<StartResult, ExpectedStartResult>,
  Equal<StoppedSession, ExpectedStoppedSession>,
  Equal<Entry, ExpectedEntry>,
  Equal<BranchPrompt, ExpectedBranchPrompt>,
  Equal<Idle, ExpectedIdle>,
  Equal<Budget, ExpectedBudget>,
  Equal<ActivityReportRow, ExpectedActivityReportRow>,
  Equal<DayReportRow, ExpectedDayReportRow>,
  Equal<ReportRow, ExpectedReportRow>,
  Equal<Report, ExpectedReport>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true];

/** Every object schema under `schema`, nested ones included. */
function objectSchemas(schema: JsonSchema): JsonSchema[] {
  const found: JsonSchema[] = schema.type === 'object' ? [schema] : [];
  for (const child of [...Object.values(schema.properties ?? {}), ...(schema.oneOf ?? []), ...(schema.items ? [schema.items] : [])]) {
    found.push(...objectSchemas(child));
  }
  return found;
}

describe('result schemas', () => {
  it('derive the types the contract states (checked by tsc)', () => {
    assert.ok(derivedAsWritten.every(Boolean));
  });

  it('forbid fields they do not list, and require every field they list (null is sent, never left out)', () => {
    for (const [name, schema] of Object.entries(RESULT_SCHEMAS as { [name: string]: JsonSchema })) {
      const objects = objectSchemas(schema);
      assert.ok(objects.length > 0, name);
      for (const object of objects) {
        assert.equal(object.additionalProperties, false, `${name}: additionalProperties`);
        assert.deepEqual([...(object.required ?? [])].sort(), Object.keys(object.properties ?? {}).sort(), `${name}: required`);
      }
    }
  });
});
