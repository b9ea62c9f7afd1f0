/**
 * What a walk of `tock` in French, Spanish and Japanese found (docs/i18n.md): English that
 * escaped into the other language's lines and punctuation that was not the language's. Each
 * line here is checked whole, so a word left in English or a stray space fails it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fr } from '../src/i18n/fr/index.ts';
import { ja } from '../src/i18n/ja/index.ts';
import { type InProcessApp, startInProcessApp } from './in-process-app.ts';
import { tockAt, type TockRun } from './real-app.ts';

/** The app's and the commands' pinned instant. */
const NOW = Date.parse('2026-11-18T12:00:00.000Z');

describe('tock in French, Spanish and Japanese', () => {
  let running: InProcessApp;
  const inLanguage = (LANG: string, ...argv: string[]): Promise<TockRun> => tockAt(() => new Date(NOW), { ...running.env, LANG }, ...argv);

  before(async () => {
    running = await startInProcessApp({ homePrefix: 'tock-cli-lang-walk-', now: NOW });
  });

  after(async () => {
    await running?.stop();
  });

  it('tock log’s usage says its durations in the language, English’s line unchanged', async () => {
    const syntax = 'tock log DURATION NAME [--note TEXT] [--tag T]… [--billable|--not-billable] [--create] [--listener] [--json]';
    assert.equal((await inLanguage('C.UTF-8', 'log', '--help')).out, `usage: ${syntax}   (DURATION: 90, 45m, 1h30m, 1:30 or 1.5h)`);
    assert.equal((await inLanguage('fr_FR.UTF-8', 'log', '--help')).out, `utilisation : ${syntax}   (DURATION : 90, 45m, 1h30m, 1:30 ou 1.5h)`);
    assert.equal((await inLanguage('es_ES.UTF-8', 'log', '--help')).out, `uso: ${syntax}   (DURATION: 90, 45m, 1h30m, 1:30 o 1.5h)`);
    assert.equal((await inLanguage('de_DE.UTF-8', 'log', '--help')).out, `Aufruf: ${syntax}   (DURATION: 90, 45m, 1h30m, 1:30 oder 1.5h)`);
    assert.equal((await inLanguage('ja_JP.UTF-8', 'help', 'log')).out, `使い方：${syntax}（DURATION：90、45m、1h30m、1:30、1.5h など）`);
    assert.doesNotMatch((await inLanguage('en_XA', 'log', '--help')).out, /1:30 or 1\.5h/);
  });

  it('in Japanese, tock help’s headings, a stopped session and a logged block are punctuated as Japanese is', async () => {
    const help = (await inLanguage('ja_JP.UTF-8', 'help')).out.split('\n');
    assert.equal(help[3], 'コマンド：');
    assert.equal((await inLanguage('ja_JP.UTF-8', 'start', 'Design', '--create')).status, 0);
    // `0 秒で`: no space between the duration's unit and its particle.
    assert.match((await inLanguage('ja_JP.UTF-8', 'stop')).out, /^「Design」を 0 秒で停止しました — 記録しませんでした：/);
    assert.equal((await inLanguage('ja_JP.UTF-8', 'log', '90', 'Design')).out, '「Design」に 1 時間 30 分を追加しました（10:30–12:00）');
  });

  it('in Japanese, a duration in words (`1 時間 30 分`) is followed by its particle without a space', () => {
    const spaced = Object.entries(ja).filter(([, message]) => /\{duration\} [をでとがに]/u.test(message));
    assert.deepEqual(spaced, []);
  });

  it('a refused --tag is said in the language, by tock start and tock log alike; English unchanged', async () => {
    for (const argv of [
      ['start', 'Design', '--create', '--tag', ''],
      ['log', '30', 'Design', '--create', '--tag', ''],
    ]) {
      assert.equal((await inLanguage('C.UTF-8', ...argv)).err, 'error: --tag: tag "" must not be empty', argv.join(' '));
      assert.equal((await inLanguage('fr_FR.UTF-8', ...argv)).err, 'error: --tag : étiquette "" : ne doit pas être vide', argv.join(' '));
      assert.equal((await inLanguage('es_ES.UTF-8', ...argv)).err, 'error: --tag: etiqueta "": no debe estar vacío', argv.join(' '));
      assert.equal((await inLanguage('ja_JP.UTF-8', ...argv)).err, 'error: --tag：タグ ""：空にはできません', argv.join(' '));
    }
  });

  it('a field the app refuses to tock log is said by its rule in the language; English keeps the client’s line', async () => {
    const note = 'n'.repeat(2001);
    const en = await inLanguage('C.UTF-8', 'log', '30', 'Design', '--create', '--note', note);
    assert.match(en.err, /^error: Tock refused the request: note: /);
    const fr = await inLanguage('fr_FR.UTF-8', 'log', '30', 'Design', '--create', '--note', note);
    assert.equal(fr.err, 'error: note : doit être un texte d’au plus 2\u202f000 caractères');
    const ja = await inLanguage('ja_JP.UTF-8', 'log', '30', 'Design', '--create', '--note', note);
    assert.match(ja.err, /^error: note：.*2,000/);
  });

  it('in French a calendar is a calendrier, as the window and the glossary say', async () => {
    assert.match((await inLanguage('fr_FR.UTF-8', 'calendar', 'list')).out, /^aucun calendrier\u00a0: tock calendar add PATH /u);
    assert.deepEqual(
      Object.entries(fr).filter(([, message]) => /agenda/iu.test(message)),
      [],
    );
  });

  it('in Japanese a client is クライアント, as the glossary says', () => {
    assert.deepEqual(
      Object.entries(ja).filter(([, message]) => message.includes('顧客')),
      [],
    );
  });
});
