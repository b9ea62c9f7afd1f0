/** The window's German messages (formal „Sie“; terms as docs/glossary/de.md has them). */
import type { Catalog } from '@tock/i18n';
import type { en } from '../en/index.ts';
import { shell } from './shell.ts';
import { today } from './today.ts';
import { reports } from './reports.ts';
import { ledger } from './ledger.ts';
import { integrations } from './integrations.ts';
import { capture } from './capture.ts';
import { settings } from './settings.ts';
import { problems } from '@tock/i18n/problems/de';
import { rules } from '@tock/i18n/rules/de';

export const de = { ...shell, ...today, ...reports, ...ledger, ...integrations, ...capture, ...settings, ...rules, ...problems } satisfies Catalog<typeof en>;
