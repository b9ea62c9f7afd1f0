/**
 * A rule whose value is a choice (`oneOf`'s options, `importFormat`'s formats) or the start of a
 * longer list (`currencyUnknown`'s `known`) travels as the app's English list, `a, b, c`;
 * worded in a language it is that language's list (`Intl.ListFormat`: a disjunction, or the
 * first items with the language's separator, `EUR、USD、…`), the values on the wire unchanged
 * (docs/i18n.md "Formats").
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createMessages } from '../src/messages.ts';
import { rules as de } from '../src/rules/de.ts';
import { rules as en } from '../src/rules/en.ts';
import { rules as es } from '../src/rules/es.ts';
import { rules as fr } from '../src/rules/fr.ts';
import { rules as ja } from '../src/rules/ja.ts';
import { wordRule } from '../src/rules/words.ts';

const CATALOGS = { en, de, fr, es, ja };

it('says the choices a rule offers, and the first of a longer list, as lists of the language', () => {
  const oneOf = { rule: 'oneOf', values: { options: 'os, file, none' } };
  const format = { rule: 'importFormat', values: { options: 'tock, toggl, watson', sent: 'docx' } };
  assert.equal(wordRule(createMessages(CATALOGS, 'en'), oneOf), 'must be one of os, file, or none');
  assert.equal(wordRule(createMessages(CATALOGS, 'de'), oneOf), 'muss einer dieser Werte sein: os, file oder none');
  assert.equal(wordRule(createMessages(CATALOGS, 'ja'), oneOf), '次のいずれかで指定してください：os、file、またはnone');
  assert.equal(wordRule(createMessages(CATALOGS, 'es'), format), '--format admite tock, toggl o watson, no «docx»');
  assert.match(wordRule(createMessages(CATALOGS, 'fr'), format) ?? '', /^--format accepte tock, toggl ou watson, /);
  // The first of the currencies Tock knows, then `…`: Japanese separates them with 、 too.
  const currency = { rule: 'currencyUnknown', values: { code: 'XYZ', known: 'EUR, USD, GBP' } };
  assert.equal(wordRule(createMessages(CATALOGS, 'ja'), currency), '「XYZ」は Tock が知っている ISO 4217 通貨ではありません（EUR、USD、GBP、…）');
  assert.equal(wordRule(createMessages(CATALOGS, 'de'), currency), '„XYZ“ ist keine ISO-4217-Währung, die Tock kennt (EUR, USD, GBP, …)');
  // The rule as sent is left as it was.
  assert.equal(oneOf.values.options, 'os, file, none');
});
