/** The desktop's German messages (formal „Sie“; terms as docs/glossary/de.md has them). */
import type { Catalog } from '@tock/i18n';
import type { en } from './en.ts';

export const de = {
  'tray.status.idle': 'Keine Zeiterfassung · heute {today}',
  'tray.status.tracking': '{activity} · {session} · heute {today}',
  'tray.status.onBreak': 'Pause von {activity} · {session} · heute {today}',
  'tray.stop': 'Anhalten',
  'tray.break': 'Pause machen',
  'tray.resume': 'Fortsetzen',
  'tray.continue': 'Weiter mit {activity}',
  'tray.start': 'Starten',
  'tray.log': 'Zeit nachtragen…',
  'tray.open': 'Tock öffnen',
  'tray.quit': 'Tock beenden',
  'reminder.title': 'Es wird nichts erfasst',
  'reminder.body.continue': 'Seit {minutes, plural, one {# Minute} other {# Minuten}} wurde nichts erfasst. Mit „{activity}“ weitermachen?',
  'reminder.body.start': 'Seit {minutes, plural, one {# Minute} other {# Minuten}} wurde nichts erfasst. Starten Sie eine Tätigkeit in Tock.',
  'reminder.forgotten': 'Heute {untracked} nicht erfasst – prüfen Sie {count, plural, one {# Vorschlag} other {# Vorschläge}} in Tock.',
  'reminder.action.continue': 'Weiter',
  'budget.title.usedUp': '{activity}: Budget aufgebraucht',
  'budget.title.share': '{activity}: {percent} % des Budgets',
  'budget.body': 'Gearbeitet: {used} von {budget} Budget.',
} satisfies Catalog<typeof en>;
