/**
 * Test support for the window's languages (docs/ui.md "Languages"): the screens, the words a
 * pseudo-locale (`en-XA`) screen may show unaccented (what `Intl` writes for `en`, the app's
 * name), every text a person can meet on a page, and the checks for sideways scroll and
 * clipped text. Shared by ui-i18n.test.ts and ui-i18n-states.test.ts.
 */
import type { Page } from 'playwright-core';

/** Every screen of the window, all translated (docs/ui.md "Languages"). */
export const SCREENS = [
  '/today',
  '/history',
  '/reports',
  '/activities',
  '/clients',
  '/invoices',
  '/settings/integrations',
  '/settings/calendar',
  '/settings/desktop',
  '/settings/capture',
  '/settings/business',
  '/settings/sync',
  '/settings/data',
  '/settings/license',
] as const;

/** A message in `en-XA` ends so: accented text padded with `~` and bracketed (@tock/i18n pseudo.ts). */
export const PSEUDO = /~+\]/;

/** Words `Intl` writes for `en` (which `en-XA` formats in: months, weekdays, a list's `and`), the app's name, the units of Tock's English durations, and the time zone's name (data: Settings › Data shows it). */
export function allowedWords(): Set<string> {
  const words = new Set(['Tock', 'h', 'min', 'm', 'AM', 'PM', ...(Intl.DateTimeFormat().resolvedOptions().timeZone.match(/[A-Za-z]+/g) ?? [])]);
  for (let i = 0; i < 12; i++) {
    const at = Date.UTC(2026, i, 15);
    for (const month of ['long', 'short'] as const) words.add(new Intl.DateTimeFormat('en', { month, timeZone: 'UTC' }).format(at));
  }
  for (let i = 0; i < 7; i++) {
    const at = Date.UTC(2026, 10, 16 + i);
    for (const weekday of ['long', 'short'] as const) words.add(new Intl.DateTimeFormat('en', { weekday, timeZone: 'UTC' }).format(at));
  }
  // A list's `and` and `or` are Intl.ListFormat's, as the months and weekdays are Intl's (docs/i18n.md "Formats").
  for (const type of ['conjunction', 'disjunction'] as const) for (const word of new Intl.ListFormat('en', { type }).format(['1', '2']).match(/[A-Za-z]+/g) ?? []) words.add(word);
  return words;
}

/** Every piece of text a person can meet on the page: text nodes (outside code, kbd and text marked with its own language) and the attributes read out or shown. */
export async function textsOf(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const parent = node.parentElement;
      // Text in a language of its own (`<option lang="de">Deutsch</option>`) is not the window's.
      if (parent === null || parent.closest('script, style, code, kbd, body [lang]') !== null) continue;
      if ((node.textContent ?? '').trim() !== '') out.push(node.textContent as string);
    }
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [data-label]')) {
      for (const name of ['aria-label', 'title', 'placeholder', 'data-label']) {
        const value = el.getAttribute(name);
        if (value) out.push(value);
      }
    }
    out.push(document.title);
    return out;
  });
}

/** The English words on the page that are neither accented by en-XA nor `allowed`, each with the text it is in. */
export async function unaccentedWords(page: Page, allowed: ReadonlySet<string>): Promise<string[]> {
  const escaped = new Set<string>();
  for (const text of await textsOf(page)) {
    for (const word of text.match(/[A-Za-z]+/g) ?? []) if (!allowed.has(word)) escaped.add(`${word} (in "${text.trim().slice(0, 80)}")`);
  }
  return [...escaped];
}

/**
 * Shows `screen` and waits for its heading (in any language) and until nothing is loading. The
 * screen is drawn once its link in the navigation is the current one: the address changes at
 * once, the window draws on the `hashchange` event that follows, and until then `main h1` is the
 * last screen's.
 */
export async function show(page: Page, screen: string): Promise<void> {
  await page.evaluate((hash) => {
    location.hash = hash;
  }, screen);
  await page.waitForFunction((hash) => location.hash === `#${hash}` && document.querySelector(`nav a[href="#${hash}"][aria-current="page"]`) !== null && document.querySelector('main h1') !== null, screen);
  await page.waitForFunction(() => document.querySelector('[aria-busy="true"], .loading') === null);
}

/** How wide the page is beyond its viewport: `scrollWidth > clientWidth` is a sideways scroll. */
export async function sidewaysScroll(page: Page): Promise<string | null> {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  return scroll > client ? `${scroll} > ${client}` : null;
}

/**
 * Text cut off by its box: an element that holds text of its own, hides what overflows it
 * (`overflow` hidden or clip) and is wider inside than its box — a word a longer language
 * would lose. Left out: text cut with an ellipsis on purpose (`text-overflow: ellipsis`, a
 * long name, shown whole in its title) and text for screen readers only (`.visually-hidden`).
 */
export async function clippedTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '');
      // Hidden on purpose: not laid out, or kept for screen readers only (a 1 px box).
      if (!own || el.offsetParent === null || el.closest('.visually-hidden') !== null || el.clientWidth <= 1) continue;
      const style = getComputedStyle(el);
      if (style.textOverflow === 'ellipsis') continue;
      const hides = ['hidden', 'clip'].includes(style.overflowX);
      if (hides && el.scrollWidth > el.clientWidth + 1) out.push(`${el.tagName.toLowerCase()}.${el.className}: "${(el.textContent ?? '').trim().slice(0, 60)}"`);
    }
    return out;
  });
}
