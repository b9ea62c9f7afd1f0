/**
 * The desktop notification of a budget threshold passed (docs/data.md "The ledger"): which
 * activity, the share of its budget reached, and the hours worked of the hours budgeted. The
 * activity's name is data: the notifier passes it as an argument, never inside a script
 * (docs/security.md "Version 3: the trust review").
 */
import type { BudgetCrossing } from '@tock/core';
import { formatDuration } from '@tock/protocol';
import type { DesktopNotification } from './notify.ts';

/** What the notification says when `crossing.activityName` passes `crossing.percent` of its budget. */
export function budgetNotification(crossing: BudgetCrossing): DesktopNotification {
  const used = formatDuration(crossing.usedSeconds, 'words');
  const budget = formatDuration(crossing.budgetSeconds, 'words');
  return crossing.percent >= 100
    ? { title: `${crossing.activityName}: budget used up`, body: `${used} worked of a ${budget} budget.` }
    : { title: `${crossing.activityName}: ${crossing.percent} % of the budget`, body: `${used} worked of a ${budget} budget.` };
}
