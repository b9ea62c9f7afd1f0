/** Les messages de la CLI en français (vouvoiement ; termes selon docs/glossary/fr.md). */
import type { Catalog } from '@tock/i18n';
import type { en } from '../en/index.ts';
import { general } from './general.ts';
import { tracking } from './tracking.ts';
import { app } from './app.ts';
import { ledger } from './ledger.ts';
import { capture } from './capture.ts';
import { sources } from './sources.ts';
import { problems } from '@tock/i18n/problems/fr';
import { rules } from '@tock/i18n/rules/fr';

export const fr = { ...general, ...tracking, ...app, ...ledger, ...capture, ...sources, ...rules, ...problems } as const satisfies Catalog<typeof en>;
