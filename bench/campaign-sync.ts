/**
 * The sync reader's property-based campaign run long (issue 23; the property is
 * packages/app/test/support/sync-campaign.ts, which `npm test` runs 40 times): a hostile folder
 * — arbitrary bytes, truncations, huge numbers, odd Unicode, FIFOs, links — never blocks the
 * app and never changes the store except through well-formed operations with the folder key's
 * mac. Prints how many cases ran.
 *
 *   node bench/campaign-sync.ts [--runs N] [--seed S]     (default 5000 runs, a random seed)
 */
import { parseArgs } from 'node:util';
import { runSyncCampaign } from '../packages/app/test/support/sync-campaign.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5000' }, seed: { type: 'string' } } });
const runs = Number(values.runs);
if (!Number.isSafeInteger(runs) || runs < 1) throw new Error(`--runs takes a whole number above 0, not "${values.runs}"`);
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const started = performance.now();
try {
  const cases = await runSyncCampaign(runs, seed);
  const seconds = (performance.now() - started) / 1000;
  console.log(`campaign-sync: ${cases} cases ran, none failed (seed ${seed}, ${seconds.toFixed(1)} s, ${(cases / seconds).toFixed(1)} cases/s)`);
} catch (error) {
  console.error(`campaign-sync: a case failed (seed ${seed}; run again with --seed ${seed}):\n${(error as Error).message}`);
  process.exitCode = 1;
}
