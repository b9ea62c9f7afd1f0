/**
 * The CLI's English messages, the source catalog (docs/i18n.md "Adding a string"): ICU
 * MessageFormat, one key per string a person reads from `tock`. Every other language's catalog
 * `satisfies Catalog<typeof en>`, so a key missing there, or one English no longer has, fails
 * the type check. Data (names, paths, numbers, the commands' syntax) are arguments, never text.
 * Each catalog is composed of one module per area (`general.ts`, …): each other language's
 * area `satisfies Catalog` of English's same area, which catches a stale key (a spread escapes
 * the excess-property check), and the whole catches a missing one.
 */
import { general } from './general.ts';
import { tracking } from './tracking.ts';
import { app } from './app.ts';
import { ledger } from './ledger.ts';
import { capture } from './capture.ts';
import { sources } from './sources.ts';
import { problems } from '@tock/i18n/problems/en';
import { rules } from '@tock/i18n/rules/en';

export const en = { ...general, ...tracking, ...app, ...ledger, ...capture, ...sources, ...rules, ...problems } as const;
