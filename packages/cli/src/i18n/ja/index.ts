/** CLI の日本語メッセージ(丁寧語。用語は docs/glossary/ja.md に従う)。 */
import type { Catalog } from '@tock/i18n';
import type { en } from '../en/index.ts';
import { general } from './general.ts';
import { tracking } from './tracking.ts';
import { app } from './app.ts';
import { ledger } from './ledger.ts';
import { capture } from './capture.ts';
import { sources } from './sources.ts';
import { problems } from '@tock/i18n/problems/ja';
import { rules } from '@tock/i18n/rules/ja';

export const ja = { ...general, ...tracking, ...app, ...ledger, ...capture, ...sources, ...rules, ...problems } as const satisfies Catalog<typeof en>;
