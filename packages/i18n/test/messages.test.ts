/**
 * Formatting messages (docs/i18n.md): plurals by the locale's rules, compiled messages kept,
 * and the pseudo-locale `en-XA` (accented, bracketed, 40 % longer, placeholders kept).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { accent, catalogProblems, createMessages, messageArguments, pluralProblems, formatCurrency, formatDurationWords, formatList, localeUses12Hour, pseudoMessage } from '@tock/i18n';
import { IntlMessageFormat } from 'intl-messageformat';

const minutes = '{n, plural, one {# minute} other {# minutes}}';
const catalogs = {
  en: { minutes, hello: 'Hello {name}' },
  de: { minutes: '{n, plural, one {# Minute} other {# Minuten}}', hello: 'Hallo {name}' },
  fr: { minutes: '{n, plural, one {# minute} other {# minutes}}', hello: 'Bonjour {name}' },
  es: { minutes: '{n, plural, one {# minuto} other {# minutos}}', hello: 'Hola {name}' },
  ja: { minutes: '{n, plural, other {# 分}}', hello: 'こんにちは {name}' },
};

describe('messages', () => {
  it('follows each locale’s plural rules for 0, 1, 2, 5 and 21', () => {
    const said = (locale: 'en' | 'de' | 'fr' | 'es' | 'ja') => [0, 1, 2, 5, 21].map((n) => createMessages(catalogs, locale)('minutes', { n }));
    assert.deepEqual(said('en'), ['0 minutes', '1 minute', '2 minutes', '5 minutes', '21 minutes']);
    assert.deepEqual(said('de'), ['0 Minuten', '1 Minute', '2 Minuten', '5 Minuten', '21 Minuten']);
    // French counts 0 as singular.
    assert.deepEqual(said('fr'), ['0 minute', '1 minute', '2 minutes', '5 minutes', '21 minutes']);
    assert.deepEqual(said('es'), ['0 minutos', '1 minuto', '2 minutos', '5 minutos', '21 minutos']);
    assert.deepEqual(said('ja'), ['0 分', '1 分', '2 分', '5 分', '21 分']);
  });

  it('reads and compiles no message until one is asked for, then each once (a start in German parses only the lines it prints)', (t) => {
    const parse = IntlMessageFormat.__parse;
    let parsed = 0;
    IntlMessageFormat.__parse = (...args: Parameters<NonNullable<typeof parse>>) => (parsed++, (parse as NonNullable<typeof parse>)(...args));
    t.after(() => {
      IntlMessageFormat.__parse = parse;
    });
    const read: string[] = [];
    const de = new Proxy(catalogs.de, { get: (target, key: string) => (read.push(key), target[key as keyof typeof target]) });
    const say = createMessages({ ...catalogs, de }, 'de');
    assert.deepEqual([parsed, read], [0, []], 'making the messages reads and compiles nothing');
    assert.equal(say('hello', { name: 'Ana' }), 'Hallo Ana');
    assert.equal(say('hello', { name: 'Bo' }), 'Hallo Bo');
    assert.deepEqual([parsed, read], [1, ['hello']], 'the first message asked for, compiled once');
    assert.equal(say('minutes', { n: 2 }), '2 Minuten');
    assert.deepEqual([parsed, read], [2, ['hello', 'minutes']]);
  });

  it('refuses a key no catalog has', () => {
    const t = createMessages(catalogs, 'de') as unknown as (key: string) => string;
    assert.throws(() => t('nope'), /no message "nope"/);
  });

  it('renders en-XA accented, bracketed and at least 40 % longer, its placeholders filled', () => {
    const t = createMessages(catalogs, 'en-XA');
    const text = t('hello', { name: 'Ana' });
    assert.equal(text, `[${accent('Hello ')}Ana\u200B~~~]`);
    assert.equal(t('minutes', { n: 2 }), '[2 ɱíñüţéš\u200B~~~~]');
    const english = 'Hello '.length;
    assert.ok(text.replaceAll('\u200B', '').length - 'Ana'.length - 2 >= english * 1.4);
  });

  it('keeps the pseudo message a valid ICU message for IntlMessageFormat', () => {
    const ast = pseudoMessage('Stop {name} after {n, plural, one {# minute} other {# minutes}}');
    assert.equal(new IntlMessageFormat(ast, 'en').format({ name: 'X', n: 1 }), '[Šţöþ X áƒţéŕ 1 ɱíñüţé\u200B~~~~~~\u200B~~]');
  });

  it("resolves each of Tock's languages to the locale ICU's list gives, and leaves any other to FormatJS", () => {
    for (const language of ['en', 'de', 'fr', 'es', 'ja']) {
      assert.equal(String(IntlMessageFormat.resolveLocale(language)), Intl.NumberFormat.supportedLocalesOf(language)[0]);
    }
    assert.equal(String(IntlMessageFormat.resolveLocale(['de-AT', 'de'])), 'de-AT');
    assert.equal(String(IntlMessageFormat.resolveLocale('pt-BR')), 'pt-BR');
  });

  it("formats a message in each of Tock's languages without asking ICU for its list of locales (the start of `tock app`)", () => {
    // A fresh process, so that nothing before has asked: it counts the calls of supportedLocalesOf.
    const script = `
      let asked = 0;
      const ask = Intl.NumberFormat.supportedLocalesOf;
      Intl.NumberFormat.supportedLocalesOf = (...args) => (asked++, ask(...args));
      const { createMessages } = await import(${JSON.stringify(import.meta.resolve('@tock/i18n'))});
      const catalogs = ${JSON.stringify(catalogs)};
      const said = ['en', 'de', 'fr', 'es', 'ja', 'en-XA'].map((locale) => createMessages(catalogs, locale)('hello', { name: 'Ana' }));
      process.stdout.write(JSON.stringify({ said, asked }));
    `;
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as { said: string[]; asked: number };
    assert.deepEqual(out.said.slice(0, 5), ['Hello Ana', 'Hallo Ana', 'Bonjour Ana', 'Hola Ana', 'こんにちは Ana']);
    assert.equal(out.asked, 0);
  });

  it('formats money, lists and the clock as the locale writes them', () => {
    assert.equal(formatCurrency('de', 1234.5, 'EUR'), '1.234,50\u00a0€');
    assert.equal(formatList('fr', ['a', 'b', 'c']), 'a, b et c');
    assert.equal(formatList('en', ['a', 'b', 'c']), 'a, b, and c');
    assert.equal(formatList('ja', ['a', 'b', 'c']), 'a、b、c');
    // A unit list (tags) has no `and` where the language leaves it out: Spanish's short style.
    assert.equal(formatList('en', ['a', 'b', 'c'], 'unit'), 'a, b, c');
    assert.equal(formatList('es', ['a', 'b', 'c'], 'unit'), 'a, b, c');
    assert.equal(formatList('ja', ['a', 'b', 'c'], 'unit'), 'a b c');
    assert.equal(formatList('de', ['a', 'b', 'c'], 'unit'), 'a, b und c');
    assert.equal(localeUses12Hour('en'), true);
    assert.equal(localeUses12Hour('de'), false);
  });
});

describe('the key check', () => {
  it('names a message that does not parse, a renamed argument, a missing and a stale key', () => {
    const broken = {
      ...catalogs,
      de: { minutes: '{n, plural, one {# Minute} other {# Minuten}', hallo: 'Hallo {name}' },
      fr: { ...catalogs.fr, hello: 'Bonjour {nom}' },
    };
    assert.deepEqual(catalogProblems(broken as unknown as typeof catalogs), [
      'de hallo: a key English does not have',
      'de minutes: not ICU MessageFormat (EXPECT_ARGUMENT_CLOSING_BRACE)',
      'de hello: missing',
      'fr hello: arguments {nom}, English has {name}',
    ]);
    assert.deepEqual(catalogProblems(catalogs), []);
    assert.deepEqual(messageArguments('{a} {n, plural, one {# {b}} other {{c}}}'), ['a', 'b', 'c', 'n']);
  });
});

describe('the plural check (0, 1, 2, 5 and 21 in each language)', () => {
  it('names the category a count takes that the message has no branch for', () => {
    // French counts 0 and 1 as `one`: without it, "0 minutes" and "1 minutes".
    assert.deepEqual(pluralProblems('fr', '{n, plural, other {# minutes}}'), ['{n} has no "one" branch, which 0 takes', '{n} has no "one" branch, which 1 takes']);
    assert.deepEqual(pluralProblems('de', '{n, plural, other {# Minuten}}'), ['{n} has no "one" branch, which 1 takes']);
    assert.deepEqual(pluralProblems('en', 'Done: {n, plural, =1 {one block} other {# blocks}}'), []);
    assert.deepEqual(pluralProblems('ja', '{n, plural, other {# 分}}'), []);
    assert.deepEqual(pluralProblems('es', '{kind, select, a {{n, plural, one {# minuto} other {# minutos}}} other {{m, plural, other {# horas}}}}'), ['{m} has no "one" branch, which 1 takes']);
  });

  it('is part of the key check every package runs', () => {
    const frenchWithoutOne = { ...catalogs, fr: { ...catalogs.fr, minutes: '{n, plural, other {# minutes}}' } };
    assert.deepEqual(catalogProblems(frenchWithoutOne), ['fr minutes: {n} has no "one" branch, which 0 takes', 'fr minutes: {n} has no "one" branch, which 1 takes']);
  });
});

describe('accent', () => {
  it('keeps VS Code icons and commands in backticks as they are', () => {
    assert.equal(accent('$(watch) Run `tock token` now'), '$(watch) Ŕüñ `tock token` ñöŵ');
  });
});

describe('durations in words', () => {
  it('shows less than a minute as 0 minutes, never as nothing, and whole hours without minutes', () => {
    assert.deepEqual(
      // French separates number and unit with a no-break space.
      (['de', 'fr', 'ja'] as const).map((l) => [0, 59, 3600].map((s) => formatDurationWords(l, s).replace(/[\u00a0\u202f]/g, ' '))),
      [
        ['0 Min.', '0 Min.', '1 Std.'],
        ['0 min', '0 min', '1 h'],
        ['0 分', '0 分', '1 時間'],
      ],
    );
  });
});
