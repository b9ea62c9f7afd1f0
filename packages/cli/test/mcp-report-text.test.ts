import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Report } from '@tock/protocol';
import { reportText } from '../src/mcp.ts';

const base = { from: '2026-11-16', to: '2026-11-22', timeZone: 'UTC', amounts: [], targetSeconds: null, balanceSeconds: null } as const;
const activity = (activityName: string, seconds: number) => ({ activityID: activityName, activityName, seconds, billedSeconds: 0, amount: null, currency: null, amounts: [] });

describe('get_report as text', () => {
  it('says rows that add up to the total as said (largest remainder), not each floored alone', () => {
    // 3 × 20 min 30 s = 61 min 30 s: floored alone the rows would say 60 min of a 61 min total.
    const report = { ...base, totalSeconds: 3690, overlapSeconds: 0, rows: [activity('A', 1230), activity('B', 1230), activity('C', 1230)] } as unknown as Report;
    assert.equal(reportText(report), ['2026-11-16 to 2026-11-22: 1h 01m in total', 'A: 21m', 'B: 20m', 'C: 20m'].join('\n'));
  });

  it('says time two activities shared once, so that the rows less it make the total', () => {
    const report = { ...base, totalSeconds: 3600, overlapSeconds: 1800, rows: [activity('A', 3600), activity('B', 1800)] } as unknown as Report;
    assert.equal(reportText(report), ['2026-11-16 to 2026-11-22: 1h in total', 'A: 1h', 'B: 30m', 'shared by several rows, counted once in the total: -30m'].join('\n'));
  });
});
