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

// Values the window fills with Japanese words of its own: durations (`10 時間`), days in words
// (`2026年12月7日`), the notifier's and idle source's names (`通知センター`). They end in
// Japanese (`分`, `日`), so no space after them; the names start in it too. A space before a
// figure (`経過時間 {duration}`, a label and its value) is the catalog's own, as are the spaces
// around a person's names, paths, code and times.
const OWN_WORDS = /\{(duration|budget|used|day|notifier)\} \P{ASCII}|\P{ASCII} \{notifier\}/u;

it('no Japanese message of the window spaces its own Japanese words from the text around them', () => {
  const messages = ja as Record<string, string>;
  assert.deepEqual(
    // The shared rules (`rule.*`) get their days from the app as YYYY-MM-DD.
    Object.entries(messages).filter(([key, message]) => !key.startsWith('rule.') && OWN_WORDS.test(message)),
    [],
  );
  for (const key of ['desk.idleFrom', 'cap.awayFrom']) assert.doesNotMatch(messages[key] as string, / \{source\}|\{source\} /u, key);
  assert.equal(messages['desk.notifier'], '通知は{notifier}を通じて送られます。');
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
