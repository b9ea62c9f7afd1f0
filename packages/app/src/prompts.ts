/**
 * Branch prompts (docs/product.md "The application"): `POST /branch-changed` queues a tracking prompt for the UI.
 * Prompts wait until a window shows them, newest first, at most 20 kept (the oldest are
 * dropped). Windows subscribe to hear of new prompts at once.
 */
import { LIMITS, type BranchRequest } from '@tock/protocol';
import type { PendingPrompt } from './views.ts';

export type { PendingPrompt } from './views.ts';

/** The queue of prompts not yet answered. */
export class PromptQueue {
  #prompts: PendingPrompt[] = [];
  readonly #listeners = new Set<(prompt: PendingPrompt) => void>();
  readonly #clock: () => number;
  readonly #newId: () => string;

  constructor(options: { clock: () => number; newId?: () => string }) {
    this.#clock = options.clock;
    this.#newId = options.newId ?? (() => crypto.randomUUID());
  }

  /** Queues a prompt for a branch switch and tells subscribed windows. */
  add(input: BranchRequest): PendingPrompt {
    const prompt: PendingPrompt = {
      promptID: this.#newId(),
      branch: input.branch.trim(),
      repo: input.repo ?? null,
      previousBranch: input.previousBranch ?? null,
      receivedAt: new Date(this.#clock()).toISOString(),
    };
    this.#prompts = [prompt, ...this.#prompts].slice(0, LIMITS.pendingPromptsMax);
    for (const listener of this.#listeners) listener(prompt);
    return prompt;
  }

  /** Pending prompts, newest first. */
  pending(): PendingPrompt[] {
    return [...this.#prompts];
  }

  /** Removes a prompt once answered (tracked, created or dismissed); false if it was not pending. */
  resolve(promptID: string): boolean {
    const before = this.#prompts.length;
    this.#prompts = this.#prompts.filter((p) => p.promptID !== promptID);
    return this.#prompts.length !== before;
  }

  /** Calls `listener` for every new prompt until the returned function is called. */
  subscribe(listener: (prompt: PendingPrompt) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
