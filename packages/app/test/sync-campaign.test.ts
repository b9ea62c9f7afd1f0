/**
 * The property-based campaign over the sync reader (support/sync-campaign.ts), briefly: a
 * folder of arbitrary bytes, cut lines, huge numbers, odd Unicode, FIFOs, links and folders
 * beside operations signed with the key — the scan ends, the app keeps turning, nothing without
 * the key's mac changes the store and everything shown passed the rules. `node
 * bench/campaign-sync.ts --runs N` runs it long (bench/README.md "Fuzz campaigns").
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSyncCampaign } from './support/sync-campaign.ts';

test('whatever the folder holds, only well-formed operations with the folder key’s mac change the store, and the app keeps answering', { timeout: 240_000 }, async () => {
  const runs = Number(process.env.TOCK_SYNC_CAMPAIGN_RUNS ?? 40);
  assert.equal(await runSyncCampaign(runs, 20261129), runs);
});
