/**
 * Sentences of the window a fluent reader rewrote in the French, Spanish and Japanese walk
 * (docs/i18n.md): pinned, so that a catalog edit does not bring back the word-for-word English
 * ("Ce sous quoi vous suivez…", "Aquello bajo lo que…", "…請求対象時間を、PDF・HTML・CSV で。").
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { de, en, es, fr, ja } from './testing.ts';

it('keeps the rewritten sentences', () => {
  assert.equal(fr['act.intro'], 'Les activités sur lesquelles vous suivez votre temps, chacune avec sa couleur partout. Un nouveau nom s’applique à tout son temps.');
  assert.equal(es['act.intro'], 'Las actividades en las que registra su tiempo, cada una con su color en todas partes. Un nombre nuevo se aplica a todo su tiempo.');
  // The business's number as its invoices print it (N° TVA), as a client's is asked.
  assert.equal(fr['biz.taxID'], 'Numéro de TVA');
  assert.equal(ja['invoices.intro'], 'まだ請求書に載っていないクライアントの請求対象時間から、PDF・HTML・CSV の請求書を作成します。');
});

it('names the business’s tax number as a client’s is named and as its invoices print it', () => {
  // Business asked for a "Steuernummer" while the invoice printed it as "USt-IdNr.:".
  for (const [lang, catalog] of Object.entries({ en, de, fr, es, ja })) {
    assert.ok(catalog['clients.taxID'].startsWith(catalog['biz.taxID']), `${lang}: ${catalog['biz.taxID']} / ${catalog['clients.taxID']}`);
  }
});
