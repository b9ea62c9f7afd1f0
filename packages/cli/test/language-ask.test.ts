/**
 * The CLI asks the app for its `language` only when the home has an app to ask
 * (packages/cli/src/language.ts): a home without its admin socket in the file system sends
 * nothing and reads the system's language — every `tock app` start, whose cold start would
 * otherwise load the HTTP client and fail to connect first (bench/README.md, figure 9).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { homePaths } from '@tock/admin';
import { languageSetting } from '../src/language.ts';

const home = mkdtempSync(join(tmpdir(), 'tock-language-ask-'));
after(() => rmSync(home, { recursive: true, force: true }));

/** An `ask` that records each socket it was given and answers `answer`. */
function recordingAsk(answer: unknown): { ask: Parameters<typeof languageSetting>[1]; asked: string[] } {
  const asked: string[] = [];
  const ask = (async (socket: string) => {
    asked.push(socket);
    return answer;
  }) as unknown as Parameters<typeof languageSetting>[1];
  return { ask, asked };
}

describe('languageSetting', () => {
  it('sends nothing and reads the system when the home has no admin socket', async () => {
    const { ask, asked } = recordingAsk('de');
    assert.equal(await languageSetting({ TOCK_HOME: join(home, 'none') }, ask), 'system');
    assert.deepEqual(asked, []);
  });

  it("asks the app on the home's admin socket when it is there, and keeps its answer", async () => {
    const socket = homePaths(home).adminSocket;
    writeFileSync(socket, '');
    const { ask, asked } = recordingAsk('de');
    assert.equal(await languageSetting({ TOCK_HOME: home }, ask), 'de');
    assert.deepEqual(asked, [socket]);
  });
});
