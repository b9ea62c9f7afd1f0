/**
 * A file's size as a person reads it (Settings › Data: a backup, a file too large to import):
 * KiB under a mebibyte, else MiB with one decimal; the number in the window's language
 * (`40,5 MiB`), the unit as the language writes it (`Mio` in French).
 */
import { intlLocale } from '@tock/i18n';
import type { WindowMessages } from './i18n/index.ts';

const MIB = 1024 * 1024;

/** `512 KiB`, `40.5 MiB` (`40,5 Mio` in French). */
export function fileSize(t: WindowMessages, bytes: number): string {
  if (bytes < MIB) return t('data.sizeKiB', { size: new Intl.NumberFormat(intlLocale(t.locale)).format(Math.max(1, Math.round(bytes / 1024))) });
  return t('data.sizeMiB', { size: mebibytes(t, bytes) });
}

/** Mebibytes with one decimal in the language's digits: `40.5`, `40,5`. */
export function mebibytes(t: WindowMessages, bytes: number): string {
  return new Intl.NumberFormat(intlLocale(t.locale), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(bytes / MIB);
}
