/**
 * The import campaign, modest (docs/data.md "Import"): arbitrary bytes, near-valid
 * files of every format with hostile values, deep JSON and truncations. Every import either
 * refuses with one line and changes nothing, or stores only well-formed data that exports.
 * The same properties run long in `node bench/campaign-import.ts --runs N`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runImportCampaign } from './support/import-properties.ts';

test('any file imports all or nothing, refuses with one ImportProblem line, and leaves only well-formed data that exports', async (t) => {
  const counts = await runImportCampaign({ runs: 300, seed: 23 });
  t.diagnostic(`import campaign: ${counts.cases} cases, ${counts.refused} refused, ${counts.imported} imported`);
  assert.ok(counts.refused > 0 && counts.imported > 0, 'the cases reach both outcomes');
});
