/** The window's Spanish messages («usted»; terms as docs/glossary/es.md has them). */
import type { Catalog } from '@tock/i18n';
import type { en } from '../en/index.ts';
import { shell } from './shell.ts';
import { today } from './today.ts';
import { reports } from './reports.ts';
import { ledger } from './ledger.ts';
import { integrations } from './integrations.ts';
import { capture } from './capture.ts';
import { settings } from './settings.ts';
import { problems } from '@tock/i18n/problems/es';
import { rules } from '@tock/i18n/rules/es';

export const es = { ...shell, ...today, ...reports, ...ledger, ...integrations, ...capture, ...settings, ...rules, ...problems } satisfies Catalog<typeof en>;
