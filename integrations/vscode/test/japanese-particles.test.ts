/**
 * In Japanese a duration (`1 分未満`, `1:30`) takes its particle without a space: the extension's
 * `「Review」を 1 分未満で停止しました`, not `1 分未満 で`, as the CLI and the window write it.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { EXTENSION_CATALOGS, extensionMessages } from '../src/i18n/index.ts';

it('no Japanese message of the extension spaces a duration from its particle', () => {
  const ja = EXTENSION_CATALOGS.ja as Record<string, string>;
  assert.deepEqual(
    Object.entries(ja).filter(([, message]) => /\{(duration|ran)\} [をでとがに]/u.test(message)),
    [],
  );
  const t = extensionMessages('ja');
  assert.equal(t('stop.done', { activity: 'Review', ran: t('stop.underMinute') }), 'Tock: 「Review」を 1 分未満で停止しました');
});
