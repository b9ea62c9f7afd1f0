/**
 * A file's size in the window's language (packages/window/src/file-size.ts): Settings › Data's
 * backups and the refusal of a file too large to import wrote `40.5 MiB` with `toFixed` in every
 * language; the number is now the language's (`40,5`) and the unit its own (`Mio` in French).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMessages, type Locale } from '@tock/i18n';
import { fileSize, mebibytes } from '../src/file-size.ts';
import { de } from '../src/i18n/de/index.ts';
import { en } from '../src/i18n/en/index.ts';
import { es } from '../src/i18n/es/index.ts';
import { fr } from '../src/i18n/fr/index.ts';
import { ja } from '../src/i18n/ja/index.ts';

const messages = (locale: Locale) => createMessages({ en, de, fr, es, ja }, locale);
const BYTES = 40.5 * 1024 * 1024;

test('a size is in the language’s digits and units; English keeps 40.5 MiB and 512 KiB', () => {
  assert.equal(fileSize(messages('en'), BYTES), '40.5 MiB');
  assert.equal(fileSize(messages('en'), 512 * 1024), '512 KiB');
  assert.equal(fileSize(messages('de'), BYTES), '40,5 MiB');
  assert.equal(fileSize(messages('fr'), BYTES), '40,5 Mio');
  assert.equal(fileSize(messages('fr'), 512 * 1024), '512 Kio');
  assert.equal(mebibytes(messages('es'), BYTES), '40,5');
  assert.match(messages('de')('data.tooLarge', { size: mebibytes(messages('de'), BYTES) }), /^Die Datei ist 40,5 MiB groß/);
});

test('in en-XA the unit comes from the catalog', () => {
  assert.match(fileSize(messages('en-XA'), BYTES), /^\[40\.5 .*~+\]$/u);
});
