/**
 * The catalog check every package's tests run (docs/i18n.md "The key check"): each message in
 * each language parses as ICU MessageFormat and uses the same argument names as English's.
 * Missing and stale keys are caught earlier, by the type check (`satisfies Catalog<typeof en>`);
 * this checks them again for catalogs built at run time.
 */
import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';
import type { Catalogs } from './catalog.ts';
import { SUPPORTED_LANGUAGES } from './languages.ts';

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
      } catch (error) {
        problems.push(`${language} ${key}: not ICU MessageFormat (${error instanceof Error ? error.message : String(error)})`);
      }
    }
  }
  return problems;
}
