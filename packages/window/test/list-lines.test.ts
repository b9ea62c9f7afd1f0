/**
 * Lists a person reads in the window, said by `Intl.ListFormat` for the language (docs/i18n.md
 * "Formats"): the ranked chart's activities with "and N more" as the last item, tags just added
 * (a unit list), what capture saw in a suggestion, a rule's conditions and its days. A list
 * joined by hand with `, ` fails here: German's `und`, Japanese's `、`, English's `, and`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Suggestion } from '@tock/protocol';
import { setWindowLanguage, windowLanguageLoaded, windowMessages } from '../src/i18n/index.ts';
import { rankedLabel, sourcesLine, tagsAddedLine } from '../src/list-lines.ts';
import { labelled, matchText } from '../src/screens/capture/rule-text.ts';
import { setAppClock, setClockFormat } from '../src/time.ts';

const SUGGESTION: Suggestion = {
  id: '20261123-0000000000000000',
  start: '2026-11-23T09:00:00.000Z',
  end: '2026-11-23T10:00:00.000Z',
  seconds: 3600,
  activityID: null,
  activityName: null,
  ruleID: null,
  sources: [
    { source: 'editor', app: null, title: null, project: 'tock', branch: 'main', seconds: 2400 },
    { source: 'window', app: 'firefox', title: null, project: null, branch: null, seconds: 1200 },
  ],
};

async function inLanguage(language: string) {
  setWindowLanguage(language);
  await windowLanguageLoaded();
  return windowMessages();
}

describe('lists in the window', () => {
  it('says each list in the language’s words, "and N more" as the last item', async () => {
    // The language's switch sets <html lang>: a stand-in for the page.
    (globalThis as { document?: unknown }).document ??= { documentElement: { lang: 'en' } };
    setAppClock('UTC', '2026-11-23T12:00:00.000Z');
    setClockFormat('24h');
    const ranked = ['A 2 h', 'B 1 h'];

    let t = await inLanguage('en');
    assert.equal(rankedLabel(t, ranked, 3), 'Time per activity, most first: A 2 h, B 1 h, and 3 more in the table below.');
    assert.equal(rankedLabel(t, ranked, 0), 'Time per activity, most first: A 2 h and B 1 h.');
    assert.equal(tagsAddedLine(t, ['Smith', 'Jones']), 'Added Smith, Jones.');
    assert.equal(matchText({ app: 'firefox', title: '*Tock*' }), 'application firefox and window title *Tock*');

    t = await inLanguage('de');
    assert.equal(rankedLabel(t, ranked, 3), 'Zeit pro Tätigkeit, die meiste zuerst: A 2 h, B 1 h und 3 weitere in der Tabelle unten.');
    assert.equal(tagsAddedLine(t, ['Smith', 'Jones', 'Q4']), 'Hinzugefügt: Smith, Jones und Q4.');
    assert.equal(matchText({ app: 'firefox', title: '*Tock*' }), 'Anwendung firefox und Fenstertitel *Tock*');
    assert.match(sourcesLine(SUGGESTION), /^tock \(main\) in einem Editor 40 Min\. und firefox 20 Min\.$/);
    const test = { ruleID: null, match: { app: 'firefox' }, activity: 'Docs', seconds: 2700, sources: [], days: [{ date: '2026-11-22', seconds: 1200 }, { date: '2026-11-23', seconds: 1500 }] };
    assert.match(labelled(t, test), /^45 Min\. in den letzten 7 Tagen \(.+: 20 Min\. und .+: 25 Min\.\)$/);

    t = await inLanguage('fr');
    assert.equal(rankedLabel(t, ranked, 1), 'Temps par activité, du plus au moins : A 2 h, B 1 h et 1 autre dans le tableau ci-dessous.');

    t = await inLanguage('ja');
    assert.equal(rankedLabel(t, ranked, 3), 'アクティビティ別の時間（多い順）：A 2 h、B 1 h、ほか 3 件（下の表を参照）。');
    // Tags side by side: a unit list, no `、` between the names of tags.
    assert.equal(tagsAddedLine(t, ['顧客', '設計']), '顧客 設計 を追加しました。');
    assert.match(sourcesLine(SUGGESTION), /^エディターの tock \(main\) 40 分、firefox 20 分$/);
    assert.match(labelled(t, test), /^直近 7 日間で 45 分（.+：20 分、.+：25 分）$/);
    setWindowLanguage('en');
  });
});
