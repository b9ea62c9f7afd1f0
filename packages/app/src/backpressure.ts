/**
 * Waiting out a full socket while streaming an answer: the admin channel's streams (exports,
 * backups) and the window's downloads both write a chunk, and when `write` says the buffer is
 * full, wait here before pulling the next one, so a long history is never held in memory.
 */
import type { ServerResponse } from 'node:http';

/** Resolves once `res` can take more (drained) or never will (closed). */
export function writable(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
