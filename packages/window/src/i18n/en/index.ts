/**
 * The window's English messages: the source catalog (ICU MessageFormat). Every other language's
 * catalog has exactly these keys (`satisfies Catalog<typeof en>`); terms as docs/glossary/ has them.
 * Each catalog is composed of one module per area (`shell.ts`, `today.ts`, …): each other
 * language's area `satisfies Catalog` of English's same area, which catches a stale key (a
 * spread escapes the excess-property check), and the whole catches a missing one. A language
 * other than English is loaded as one chunk when chosen (../index.ts).
 */
import { shell } from './shell.ts';
import { today } from './today.ts';
import { reports } from './reports.ts';
import { ledger } from './ledger.ts';
import { integrations } from './integrations.ts';
import { capture } from './capture.ts';
import { settings } from './settings.ts';
import { problems } from '@tock/i18n/problems/en';
import { rules } from '@tock/i18n/rules/en';

export const en = { ...shell, ...today, ...reports, ...ledger, ...integrations, ...capture, ...settings, ...rules, ...problems } as const;
