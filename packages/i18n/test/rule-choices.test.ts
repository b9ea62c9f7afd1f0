/**
 * A rule whose value is a choice (`oneOf`'s options, `importFormat`'s formats) travels as the
 * app's English list, `a, b, c`; worded in a language it is that language's list of choices
 * (`Intl.ListFormat`, a disjunction), the values on the wire unchanged (docs/i18n.md "Formats").
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

it('says the choices a rule offers as a list of choices in each language', () => {
  const oneOf = { rule: 'oneOf', values: { options: 'os, file, none' } };
  const format = { rule: 'importFormat', values: { options: 'tock, toggl, watson', sent: 'docx' } };
  assert.equal(wordRule(createMessages(CATALOGS, 'en'), oneOf), 'must be one of os, file, or none');
  assert.equal(wordRule(createMessages(CATALOGS, 'de'), oneOf), 'muss einer dieser Werte sein: os, file oder none');
  assert.equal(wordRule(createMessages(CATALOGS, 'ja'), oneOf), '次のいずれかで指定してください：os、file、またはnone');
  assert.equal(wordRule(createMessages(CATALOGS, 'es'), format), '--format admite tock, toggl o watson, no «docx»');
  assert.match(wordRule(createMessages(CATALOGS, 'fr'), format) ?? '', /^--format accepte tock, toggl ou watson, /);
  // The rule as sent is left as it was.
  assert.equal(oneOf.values.options, 'os, file, none');
});
