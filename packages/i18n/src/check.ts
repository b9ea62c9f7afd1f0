/**
 * The catalog check every package's tests run (docs/i18n.md "The key check"): each message in
 * each language parses as ICU MessageFormat, uses the same argument names as English's, and
 * has a branch for the plural category each of the counts 0, 1, 2, 5 and 21 takes in its
 * language (docs/i18n.md "Plurals").
 * Missing and stale keys are caught earlier, by the type check (`satisfies Catalog<typeof en>`);
 * this checks them again for catalogs built at run time.
 */
import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';
import type { Catalogs } from './catalog.ts';
import { type Language, SUPPORTED_LANGUAGES } from './languages.ts';

/** The counts every plural is checked with: each category the five languages give whole numbers, and 21 (`one` in some languages Tock may add). */
export const PLURAL_CHECK_COUNTS: readonly number[] = [0, 1, 2, 5, 21];

function collect(elements: readonly MessageFormatElement[], into: Set<string>): Set<string> {
  for (const element of elements) {
    if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
    if (element.type === TYPE.tag) {
      collect(element.children, into);
      continue;
    }
    into.add(element.value);
    if (element.type === TYPE.plural || element.type === TYPE.select) for (const option of Object.values(element.options)) collect(option.value, into);
  }
  return into;
}

/** The argument names an ICU message uses, sorted (its plural and select branches included); throws when it does not parse. */
export function messageArguments(message: string): string[] {
  return [...collect(parse(message), new Set())].sort();
}

/** Every cardinal plural of a parsed message: its argument and the branches it has (`one`, `other`, `=0`). */
function cardinalPlurals(elements: readonly MessageFormatElement[], into: { name: string; branches: string[] }[]): { name: string; branches: string[] }[] {
  for (const element of elements) {
    if (element.type === TYPE.tag) cardinalPlurals(element.children, into);
    if (element.type !== TYPE.plural && element.type !== TYPE.select) continue;
    if (element.type === TYPE.plural && element.pluralType === 'cardinal') into.push({ name: element.value, branches: Object.keys(element.options) });
    for (const option of Object.values(element.options)) cardinalPlurals(option.value, into);
  }
  return into;
}

/**
 * What is wrong with the plurals of `message` in `language`: for each of
 * {@link PLURAL_CHECK_COUNTS}, the branch its category takes in the language (`Intl.PluralRules`),
 * unless an exact `=n` branch covers it. A French message without `one` would print
 * "0 minutes" as French does not; a German one without `one`, "1 Minuten".
 */
export function pluralProblems(language: Language, message: string): string[] {
  const rules = new Intl.PluralRules(language);
  const problems: string[] = [];
  for (const plural of cardinalPlurals(parse(message), [])) {
    for (const count of PLURAL_CHECK_COUNTS) {
      const category = rules.select(count);
      if (!plural.branches.includes(`=${count}`) && !plural.branches.includes(category)) problems.push(`{${plural.name}} has no "${category}" branch, which ${count} takes`);
    }
  }
  return [...new Set(problems)];
}

/** What is wrong with `catalogs`, one line each (`de tray.stop: …`); empty when nothing is. */
export function catalogProblems<Source extends Record<string, string>>(catalogs: Catalogs<Source>): string[] {
  const problems: string[] = [];
  const english = catalogs.en as Record<string, string>;
  for (const language of SUPPORTED_LANGUAGES) {
    const catalog = catalogs[language] as Record<string, string>;
    for (const key of Object.keys(catalog)) if (!(key in english)) problems.push(`${language} ${key}: a key English does not have`);
    for (const [key, source] of Object.entries(english)) {
      const message = catalog[key];
      if (message === undefined) {
        problems.push(`${language} ${key}: missing`);
        continue;
      }
      try {
        const wanted = messageArguments(source).join(', ');
        const got = messageArguments(message).join(', ');
        if (got !== wanted) problems.push(`${language} ${key}: arguments {${got}}, English has {${wanted}}`);
        for (const problem of pluralProblems(language, message)) problems.push(`${language} ${key}: ${problem}`);
      } catch (error) {
        problems.push(`${language} ${key}: not ICU MessageFormat (${error instanceof Error ? error.message : String(error)})`);
      }
    }
  }
  return problems;
}
