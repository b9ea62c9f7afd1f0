/**
 * The desktop's catalogs and the strings they feed (docs/i18n.md): every message of every
 * language parses as ICU and takes the same arguments as English; the tray's menu and the
 * notifications come out in German and Japanese; and in the pseudo-locale `en-XA` every text
 * of the tray and of the notifications is bracketed, so none bypasses the catalog.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catalogProblems, SUPPORTED_LANGUAGES } from '@tock/i18n';
import type { Status } from '@tock/protocol';
import { createTracker, openStore } from '@tock/core';
import { budgetNotification } from '../src/budget-notice.ts';
import { createDesktop } from '../src/desktop.ts';
import type { DesktopNotification } from '../src/notify.ts';
import { forgottenText, Reminder } from '../src/reminder.ts';
import type { DesktopSettings } from '../src/settings.ts';
import type { TrayMenuItem } from '../src/tray/tray.ts';
import { trayModel, type TrayFacts } from '../src/tray/tray-model.ts';
import { DESKTOP_CATALOGS, desktopMessages } from '../src/i18n/index.ts';

const tracking: TrayFacts = {
  status: {
    isTracking: true,
    isOnBreak: false,
    todaySeconds: 3 * 3600 + 5 * 60,
    currentActivity: { activityID: 'a1', activityName: 'Writing docs' },
  } as Status,
  sessionSeconds: 72 * 60,
  recent: [
    { activityID: 'a1', activityName: 'Writing docs' },
    { activityID: 'a2', activityName: 'Mail' },
  ],
  last: null,
};

const idle: TrayFacts = { ...tracking, status: { ...tracking.status, isTracking: false, currentActivity: null } as Status, sessionSeconds: null, last: { activityID: 'a2', activityName: 'Mail' } };

/** Every text of a menu, depth first; activity names are data and come along as they are. */
function labels(items: readonly TrayMenuItem[]): string[] {
  return items.flatMap((item) => (item.kind === 'separator' ? [] : item.kind === 'submenu' ? [item.label, ...labels(item.items)] : [item.label]));
}

function remind(locale: Parameters<typeof desktopMessages>[0], last: string | null): { title: string; body: string } {
  let sent: { title: string; body: string } | undefined;
  const settings = { reminderEnabled: true, reminderAfterMinutes: 15, workingHours: { from: '00:00', to: '23:59', days: [0, 1, 2, 3, 4, 5, 6] } } as DesktopSettings;
  new Reminder({
    clock: () => Date.parse('2026-11-23T10:00:00Z'),
    settings: () => settings,
    timeZone: () => 'UTC',
    tracking: () => false,
    lastTrackedEndMs: () => Date.parse('2026-11-23T09:39:00Z'),
    lastActivityName: () => last,
    startedAtMs: 0,
    forgotten: () => ({ count: 2, seconds: 3900 }),
    messages: () => desktopMessages(locale),
    send: (text) => {
      sent = text;
    },
  }).check();
  assert.ok(sent);
  return sent;
}

describe('the desktop catalogs', () => {
  it('parse as ICU in every language and use the same arguments as English', () => {
    assert.deepEqual(catalogProblems(DESKTOP_CATALOGS), []);
  });

  it('have exactly English’s keys in every language', () => {
    const keys = Object.keys(DESKTOP_CATALOGS.en).sort();
    for (const language of SUPPORTED_LANGUAGES) assert.deepEqual(Object.keys(DESKTOP_CATALOGS[language]).sort(), keys, language);
  });

  it('count minutes by each language’s plural rules (0, 1, 2, 5, 21)', () => {
    const said = (locale: 'en' | 'de' | 'ja') => [0, 1, 2, 5, 21].map((minutes) => desktopMessages(locale)('reminder.body.start', { minutes }).split('.')[0]);
    assert.deepEqual(said('en'), [0, 1, 2, 5, 21].map((n) => `Nothing has been tracked for ${n} ${n === 1 ? 'minute' : 'minutes'}`));
    assert.deepEqual(said('de'), [0, 1, 2, 5, 21].map((n) => `Seit ${n} ${n === 1 ? 'Minute' : 'Minuten'} wurde nichts erfasst`));
    assert.deepEqual(said('ja'), [0, 1, 2, 5, 21].map((n) => `${n} 分間、何も記録されていません。Tock でアクティビティを開始してください。`));
  });
});

describe('the tray in German and Japanese', () => {
  it('shows the menu and the status line in German', () => {
    const model = trayModel(tracking, desktopMessages('de'));
    assert.equal(model.statusLine, 'Writing docs · 1:12 · heute 3:05');
    assert.deepEqual(labels(model.menu), ['Writing docs · 1:12 · heute 3:05', 'Anhalten', 'Pause machen', 'Starten', 'Mail', 'Zeit nachtragen…', 'Tock öffnen', 'Tock beenden']);
    assert.deepEqual(labels(trayModel(idle, desktopMessages('de')).menu).slice(0, 2), ['Keine Zeiterfassung · heute 3:05', 'Weiter mit Mail']);
  });

  it('shows the menu and the status line in Japanese', () => {
    const onBreak = { ...tracking, status: { ...tracking.status, isOnBreak: true } as Status };
    const model = trayModel(onBreak, desktopMessages('ja'));
    assert.deepEqual(labels(model.menu), ['休憩中（Writing docs） · 1:12 · 今日 3:05', '停止', '再開', '開始', 'Mail', '時間を追加…', 'Tock を開く', 'Tock を終了']);
  });
});

describe('the notifications in German and Japanese', () => {
  const crossing = { activityID: 'a1', activityName: 'Writing docs', percent: 80, usedSeconds: 8 * 3600, budgetSeconds: 10 * 3600 } as Parameters<typeof budgetNotification>[0];

  it('says the budget notice in German and Japanese', () => {
    assert.deepEqual(budgetNotification(crossing, desktopMessages('de')), { title: 'Writing docs: 80 % des Budgets', body: 'Gearbeitet: 8 Std. von 10 Std. Budget.' });
    assert.deepEqual(budgetNotification({ ...crossing, percent: 100 }, desktopMessages('ja')), { title: 'Writing docs：予算を使い切りました', body: '予算 10 時間 のうち 8 時間 作業しました。' });
  });

  it('says the reminder in German and Japanese, plurals and durations in their words', () => {
    assert.deepEqual(remind('de', 'Mail'), {
      title: 'Es wird nichts erfasst',
      body: 'Seit 21 Minuten wurde nichts erfasst. Mit „Mail“ weitermachen? Heute 1 Std., 5 Min. nicht erfasst – prüfen Sie 2 Vorschläge in Tock.',
      canContinue: true,
    });
    assert.deepEqual(remind('ja', null), {
      title: '何も記録されていません',
      body: '21 分間、何も記録されていません。Tock でアクティビティを開始してください。 今日の未記録時間は 1 時間 5 分 です。Tock で 2 件の提案をご確認ください。',
      canContinue: false,
    });
  });

  it('a running desktop says them in the setting language, "system" read from the app’s environment, at each notice', async (t) => {
    const store = openStore(':memory:');
    const sent: DesktopNotification[] = [];
    const desktop = createDesktop({
      store,
      tracker: createTracker({ store, clock: () => Date.parse('2026-11-23T10:00:00Z'), timeZone: 'UTC' }),
      clock: () => Date.parse('2026-11-23T10:00:00Z'),
      timers: false,
      idleSources: () => [],
      tray: () => ({ show: () => {}, state: () => 'shown', close: async () => {} }),
      notifier: { name: 'stand-in', notify: async (n) => void sent.push(n) },
      env: { LANG: 'de_DE.UTF-8' },
    });
    t.after(async () => {
      await desktop.stop();
      store.close();
    });
    desktop.notifyBudget(crossing);
    store.settings.set('language', 'ja');
    desktop.notifyBudget({ ...crossing, percent: 100 });
    store.settings.set('language', 'en');
    desktop.notifyBudget(crossing);
    assert.deepEqual(
      sent.map((n) => n.title),
      ['Writing docs: 80 % des Budgets', 'Writing docs：予算を使い切りました', 'Writing docs: 80 % of the budget'],
    );
  });
});

describe('the pseudo-locale en-XA', () => {
  const bracketed = (text: string): boolean => text.startsWith('[') && text.endsWith(']') && !/\b(today|Stop|Start|Tock|minutes?|budget|tracked)\b/.test(text.replace(/Tock/g, ''));
  const xa = desktopMessages('en-XA');

  it('leaves no tray text outside the catalog', () => {
    for (const facts of [tracking, idle, { ...tracking, status: { ...tracking.status, isOnBreak: true } as Status }]) {
      const model = trayModel(facts, xa);
      const texts = labels(model.menu).filter((label) => label !== 'Mail' && label !== 'Writing docs');
      assert.ok(texts.length >= 6);
      for (const text of [model.statusLine, ...texts]) assert.ok(bracketed(text), text);
    }
  });

  it('leaves no notification text outside the catalog', () => {
    const crossing = { activityID: 'a1', activityName: 'Writing docs', percent: 80, usedSeconds: 8 * 3600, budgetSeconds: 10 * 3600 } as Parameters<typeof budgetNotification>[0];
    const texts = [
      ...Object.values(budgetNotification(crossing, xa)),
      ...Object.values(budgetNotification({ ...crossing, percent: 100 }, xa)),
      remind('en-XA', 'Mail').title,
      remind('en-XA', null).title,
      forgottenText({ count: 2, seconds: 3900 }, xa).trim(),
      xa('reminder.action.continue'),
    ];
    for (const text of texts) assert.ok(bracketed(text), text);
    // The reminder's body is two messages, each bracketed.
    for (const part of remind('en-XA', 'Mail').body.split('] ')) assert.ok(bracketed(part.endsWith(']') ? part : `${part}]`), part);
  });
});
