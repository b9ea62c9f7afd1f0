import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PromptQueue, type PendingPrompt } from '../src/prompts.ts';

describe('branch prompts', () => {
  let n = 0;
  const queue = () => new PromptQueue({ clock: () => 1_795_000_000_000, newId: () => `prompt-${n++}` });

  it('keep the newest first and at most 20 while no window takes them', () => {
    const prompts = queue();
    for (let i = 0; i < 25; i++) prompts.add({ branch: `b${i}` });
    const pending = prompts.pending();
    assert.equal(pending.length, 20);
    assert.equal(pending[0]!.branch, 'b24');
    assert.equal(pending[19]!.branch, 'b5');
  });

  it('carry repo and previous branch, trimmed branch, null when absent', () => {
    const prompts = queue();
    const prompt = prompts.add({ branch: '  feature/x ', repo: '/src/shop', previousBranch: 'main' });
    assert.deepEqual({ ...prompt, promptID: undefined }, {
      promptID: undefined,
      branch: 'feature/x',
      repo: '/src/shop',
      previousBranch: 'main',
      receivedAt: '2026-11-18T11:06:40.000Z',
    });
    assert.equal(prompts.add({ branch: 'y' }).repo, null);
  });

  it('tell open windows at once and leave the queue when answered', () => {
    const prompts = queue();
    const heard: PendingPrompt[] = [];
    const unsubscribe = prompts.subscribe((p) => heard.push(p));
    const first = prompts.add({ branch: 'a' });
    unsubscribe();
    prompts.add({ branch: 'b' });
    assert.deepEqual(heard.map((p) => p.branch), ['a']);
    assert.equal(prompts.resolve(first.promptID), true);
    assert.equal(prompts.resolve(first.promptID), false);
    assert.deepEqual(prompts.pending().map((p) => p.branch), ['b']);
  });
});
