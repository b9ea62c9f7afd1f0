/**
 * `@tock/i18n`: Tock's languages (docs/i18n.md). Typed catalogs of ICU messages formatted with
 * FormatJS's `intl-messageformat`, the language setting and its `"system"` resolution, `Intl`
 * formats, and the pseudo-locale `en-XA` for tests.
 */
export * from './catalog.ts';
export * from './check.ts';
export * from './formats.ts';
export * from './languages.ts';
export * from './messages.ts';
export * from './pseudo.ts';
