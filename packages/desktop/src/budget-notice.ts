/**
 * The desktop notification of a budget threshold passed (docs/data.md "The ledger"): which
 * activity, the share of its budget reached, and the hours worked of the hours budgeted. The
 * activity's name is data: the notifier passes it as an argument, never inside a script
 * (docs/security.md "Version 3: the trust review").
 */
import type { BudgetCrossing } from '@tock/core';
import { type DesktopMessages, desktopMessages } from './i18n/index.ts';
import type { DesktopNotification } from './notify.ts';

/** What the notification says, in `t`'s language, when `crossing.activityName` passes `crossing.percent` of its budget. */
export function budgetNotification(crossing: BudgetCrossing, t: DesktopMessages = desktopMessages()): DesktopNotification {
  const activity = crossing.activityName;
  const body = t('budget.body', { used: t.durationWords(crossing.usedSeconds), budget: t.durationWords(crossing.budgetSeconds) });
  return crossing.percent >= 100
    ? { title: t('budget.title.usedUp', { activity }), body }
    : { title: t('budget.title.share', { activity, percent: crossing.percent }), body };
}
