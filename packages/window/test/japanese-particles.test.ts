/**
 * In Japanese a duration in words (`1 時間 30 分`, the window's `duration()`) takes its particle
 * without a space: `30 分を追加しました`, not `30 分 を`. Checked over the window's whole Japanese
 * catalog, as the CLI's languages-walk test checks the CLI's. The glossary's terms
 * (docs/glossary/ja.md): a client is クライアント, never 顧客; a tax ID is 登録番号 wherever the
 * person's own is asked, as the invoice prints it.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ja } from '../src/i18n/ja/index.ts';

it('no Japanese message of the window spaces a duration from its particle', () => {
  const spaced = Object.entries(ja as Record<string, string>).filter(([, message]) => /\{duration\} [をでとがに]/u.test(message));
  assert.deepEqual(spaced, []);
});

it('uses the glossary’s words: クライアント, and 登録番号 for the business’s tax ID as for a client’s', () => {
  const messages = ja as Record<string, string>;
  assert.deepEqual(
    Object.entries(messages).filter(([, message]) => message.includes('顧客')),
    [],
  );
  assert.equal(messages['biz.taxID'], '登録番号');
  assert.equal(messages['clients.taxID'], '登録番号（任意）');
});
