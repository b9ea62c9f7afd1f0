/**
 * In Japanese a duration in words (`1 時間 30 分`, the window's `duration()`) takes its particle
 * without a space: `30 分を追加しました`, not `30 分 を`. Checked over the window's whole Japanese
 * catalog, as the CLI's languages-walk test checks the CLI's.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ja } from '../src/i18n/ja/index.ts';

it('no Japanese message of the window spaces a duration from its particle', () => {
  const spaced = Object.entries(ja as Record<string, string>).filter(([, message]) => /\{duration\} [をでとがに]/u.test(message));
  assert.deepEqual(spaced, []);
});
