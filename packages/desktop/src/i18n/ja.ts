/** The desktop's Japanese messages (です・ます; terms as docs/glossary/ja.md has them). */
import type { Catalog } from '@tock/i18n';
import type { en } from './en.ts';

export const ja = {
  'tray.status.idle': '記録なし · 今日 {today}',
  'tray.status.tracking': '{activity} · {session} · 今日 {today}',
  'tray.status.onBreak': '休憩中（{activity}） · {session} · 今日 {today}',
  'tray.stop': '停止',
  'tray.break': '休憩する',
  'tray.resume': '再開',
  'tray.continue': '{activity} を続ける',
  'tray.start': '開始',
  'tray.log': '時間を追加…',
  'tray.open': 'Tock を開く',
  'tray.quit': 'Tock を終了',
  'reminder.title': '何も記録されていません',
  'reminder.body.continue': '{minutes, plural, other {# 分}}間、何も記録されていません。「{activity}」を続けますか？',
  'reminder.body.start': '{minutes, plural, other {# 分}}間、何も記録されていません。Tock でアクティビティを開始してください。',
  'reminder.forgotten': '今日の未記録時間は {untracked} です。Tock で {count, plural, other {# 件}}の提案をご確認ください。',
  'reminder.action.continue': '続ける',
  'budget.title.usedUp': '{activity}：予算を使い切りました',
  'budget.title.share': '{activity}：予算の {percent} % に達しました',
  'budget.body': '予算 {budget} のうち {used} 作業しました。',
} satisfies Catalog<typeof en>;
