import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { signedBeforeStart } from '../src/checks.ts';

describe('restart guard (docs/protocol.md "Request signing", replays across a restart)', () => {
  const start = 1_795_000_000_700; // 0.7 s into a second

  it('accepts a request signed in the second the app started', () => {
    assert.equal(signedBeforeStart(1_795_000_000, start + 200, start), false);
  });

  it('refuses, for 60 s after the start, a timestamp of an earlier second', () => {
    assert.equal(signedBeforeStart(1_794_999_999, start + 200, start), true);
    assert.equal(signedBeforeStart(1_794_999_999, start + 59_999, start), true);
  });

  it('leaves old timestamps to the clock-drift rule once the 60 s are over', () => {
    assert.equal(signedBeforeStart(1_794_999_999, start + 60_000, start), false);
  });
});
