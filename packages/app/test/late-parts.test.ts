/**
 * The app's late-bound parts (packages/app/src/components/late-parts.ts): a part reached before
 * it is made is missing, not a placeholder; each part is bound once.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LateParts } from '../src/components/late-parts.ts';

describe('late parts', () => {
  it('answers undefined for a part not bound yet, and the part once bound', () => {
    const late = new LateParts<{ window: { port: number } }>();
    assert.equal(late.get('window'), undefined);
    const window = { port: 4321 };
    assert.equal(late.bind('window', window), window);
    assert.equal(late.get('window'), window);
  });

  it('refuses to bind a part twice, keeping the first', () => {
    const late = new LateParts<{ live: { name: string } }>();
    const first = { name: 'first' };
    late.bind('live', first);
    assert.throws(() => late.bind('live', { name: 'second' }), /live is already bound/);
    assert.equal(late.get('live'), first);
  });
});
