/**
 * The desktop's English messages, the source every other language follows (docs/i18n.md
 * "Adding a string"): the tray's status line and menu, the reminder and the budget
 * notifications. ICU MessageFormat; `{activity}` is the activity's name (data, never translated).
 */
export const en = {
  'tray.status.idle': 'Not tracking · today {today}',
  'tray.status.tracking': '{activity} · {session} · today {today}',
  'tray.status.onBreak': 'On a break from {activity} · {session} · today {today}',
  'tray.stop': 'Stop',
  'tray.break': 'Take a break',
  'tray.resume': 'Resume',
  'tray.continue': 'Continue {activity}',
  'tray.start': 'Start',
  'tray.log': 'Log time…',
  'tray.open': 'Open Tock',
  'tray.quit': 'Quit Tock',
  'reminder.title': 'Nothing is being tracked',
  'reminder.body.continue': 'Nothing has been tracked for {minutes, plural, one {# minute} other {# minutes}}. Continue "{activity}"?',
  'reminder.body.start': 'Nothing has been tracked for {minutes, plural, one {# minute} other {# minutes}}. Start an activity in Tock.',
  'reminder.forgotten': '{untracked} untracked today — review {count, plural, one {# suggestion} other {# suggestions}} in Tock.',
  'reminder.action.continue': 'Continue',
  'budget.title.usedUp': '{activity}: budget used up',
  'budget.title.share': '{activity}: {percent} % of the budget',
  'budget.body': '{used} worked of a {budget} budget.',
} as const;
