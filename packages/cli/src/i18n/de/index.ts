/** Die Meldungen der CLI auf Deutsch (formelles „Sie“; Begriffe nach docs/glossary/de.md). */
import type { Catalog } from '@tock/i18n';
import type { en } from '../en/index.ts';
import { general } from './general.ts';
import { tracking } from './tracking.ts';
import { app } from './app.ts';
import { ledger } from './ledger.ts';
import { capture } from './capture.ts';
import { sources } from './sources.ts';
import { problems } from '@tock/i18n/problems/de';
import { rules } from '@tock/i18n/rules/de';

export const de = { ...general, ...tracking, ...app, ...ledger, ...capture, ...sources, ...rules, ...problems } as const satisfies Catalog<typeof en>;
