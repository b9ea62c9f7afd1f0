/**
 * `tock`'s columns are laid out in terminal columns (src/text-width.ts): a wide character
 * (kana, kanji, full-width forms) takes two, a combining mark none. In Japanese the timeline's
 * kinds (`ウィンドウ`, `アイドル`) and the suggestions' durations (`1 時間 5 分`) line up, as
 * the report's table does (report-table.test.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Timeline } from '@tock/core';
import { formatTimeline } from '../src/capture-command.ts';
import { loadCliMessages } from '../src/i18n/index.ts';
import { padEndColumns, padStartColumns, textWidth } from '../src/text-width.ts';

const span = { title: null, project: null, branch: null, language: null, entity: null, editor: null, machine: null };

describe('terminal columns', () => {
  it('a wide character takes two columns, a combining mark or a zero-width space none', () => {
    assert.equal(textWidth('Design'), 6);
    assert.equal(textWidth('設計レビュー'), 12);
    assert.equal(textWidth('株式会社ﾃｽﾄ'), 11); // half-width katakana take one
    assert.equal(textWidth('ＡＢ１'), 6);
    assert.equal(textWidth('Réunion'), 7);
    assert.equal(textWidth('Re\u0301union'), 7);
    assert.equal(textWidth('a\u200Bb'), 2);
    assert.equal(textWidth('한국어'), 6);
    assert.equal(textWidth('🙂'), 2);
  });

  it('pads to columns, not characters', () => {
    assert.equal(padEndColumns('設計', 6), '設計  ');
    assert.equal(padStartColumns('時間', 5), ' 時間');
    assert.equal(padEndColumns('too wide', 3), 'too wide');
  });

  it('the timeline’s kinds in Japanese line up: each span’s text starts at the same column', async () => {
    const ja = await loadCliMessages('ja');
    const day: Timeline = {
      date: '2026-11-17',
      timeZone: 'UTC',
      spans: [
        { ...span, start: '2026-11-17T09:00:00.000Z', end: '2026-11-17T09:30:00.000Z', source: 'window', app: 'Firefox' },
        { ...span, start: '2026-11-17T09:30:00.000Z', end: '2026-11-17T10:00:00.000Z', source: 'idle', app: null },
        { ...span, start: '2026-11-17T10:00:00.000Z', end: '2026-11-17T10:30:00.000Z', source: 'excluded', app: null },
      ],
    };
    const lines = formatTimeline(ja, day).split('\n').slice(1);
    assert.deepEqual(
      lines.map((l) => l.slice(0, 13)),
      ['09:00–09:30  ', '09:30–10:00  ', '10:00–10:30  '],
    );
    // The kinds' column is as wide as its widest, `ウィンドウ` (10 columns), then two spaces.
    assert.deepEqual(
      lines.map((l) => textWidth(l.slice(13)) - textWidth(l.slice(13).replace(/^\S+\s+/u, ''))),
      [12, 12, 12],
      lines.join('\n'),
    );
  });
});
