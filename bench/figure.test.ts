/** The round helpers of bench/lib/figure.ts: which side runs when, and how two sides pair up. */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alternatingRounds, pairOf } from './lib/figure.ts';

test('alternating rounds run the sides in order, then in reverse, and keep each side its runs', async () => {
  const ran: string[] = [];
  const side = (name: string) => async () => {
    ran.push(name);
    return `${name}${ran.length}`;
  };
  const runs = await alternatingRounds(3, ['bare', 'floor', 'app'], { bare: side('bare'), floor: side('floor'), app: side('app') });
  assert.deepEqual(ran, ['bare', 'floor', 'app', 'app', 'floor', 'bare', 'bare', 'floor', 'app']);
  assert.deepEqual(runs, { bare: ['bare1', 'bare6', 'bare7'], floor: ['floor2', 'floor5', 'floor8'], app: ['app3', 'app4', 'app9'] });
});

test('a pair holds each side’s picked number, the ratio subject ÷ baseline per round, and the runs', () => {
  const subject = [{ us: 30 }, { us: 40 }];
  const baseline = [{ us: 20 }, { us: 50 }];
  assert.deepEqual(
    pairOf(subject, baseline, (d) => d.us),
    { subject: [30, 40], baseline: [20, 50], ratios: [1.5, 0.8], subjectDetails: subject, baselineDetails: baseline },
  );
});
