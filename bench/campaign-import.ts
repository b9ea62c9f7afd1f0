/**
 * The import campaign run long, outside `npm test` (docs/data.md "Import"): the
 * properties of packages/core/test/support/import-properties.ts — arbitrary bytes, near-valid
 * files of every format with hostile values, deep JSON, truncations — `--runs N` times (default
 * 20 000), with `--seed S` to repeat a run. Prints how many cases ran and how they ended; a
 * finding fails with fast-check's counterexample and the seed to replay it.
 *
 *   node bench/campaign-import.ts --runs 100000
 */
import { parseArgs } from 'node:util';
import { runImportCampaign } from '../packages/core/test/support/import-properties.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '20000' }, seed: { type: 'string' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs takes a whole number, not "${values.runs}"`);
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const started = performance.now();
const counts = await runImportCampaign({ runs, seed });
const seconds = (performance.now() - started) / 1000;
console.log(
  `import campaign: ${counts.cases} cases in ${seconds.toFixed(1)} s (seed ${seed}): ${counts.refused} refused with one line and nothing changed, ` +
    `${counts.imported} imported only well-formed data; 0 findings`,
);
