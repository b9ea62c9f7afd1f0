/**
 * `409 invoiced` (docs/protocol.md "Errors"): a use case that refuses to change a block on an
 * invoice is answered with status 409, code `invoiced` and core's one line, through the real
 * listener and its signed envelope — the same problem the CLI and the window show.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ERROR_STATUS, Problem } from '@tock/protocol';
import { startHarness, stubHandlers } from './signed-client.ts';

const LINE = 'this block is on invoice INV-2026-001; void the invoice to change it';

it('answers a use case refused as invoiced with 409, code invoiced and the line naming the invoice', async (t) => {
  assert.equal(ERROR_STATUS.invoiced, 409);
  const h = await startHarness(t, {
    handlers: {
      ...stubHandlers({}),
      logEntry: () => {
        throw new Problem('invoiced', LINE);
      },
    },
  });
  const answer = await h.send({ method: 'POST', target: '/entries', body: JSON.stringify({ name: 'Design', durationMinutes: 30 }) });
  assert.equal(answer.status, 409, answer.text);
  assert.equal(answer.json.ok, false);
  assert.equal(answer.json.code, 'invoiced');
  assert.equal(answer.json.error, LINE);
});
