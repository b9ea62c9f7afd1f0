/** The desktop's French messages (« vous » ; terms as docs/glossary/fr.md has them). */
import type { Catalog } from '@tock/i18n';
import type { en } from './en.ts';

export const fr = {
  'tray.status.idle': 'Aucun suivi · aujourd’hui {today}',
  'tray.status.tracking': '{activity} · {session} · aujourd’hui {today}',
  'tray.status.onBreak': 'En pause de {activity} · {session} · aujourd’hui {today}',
  'tray.stop': 'Arrêter',
  'tray.break': 'Faire une pause',
  'tray.resume': 'Reprendre',
  'tray.continue': 'Continuer {activity}',
  'tray.start': 'Démarrer',
  'tray.log': 'Ajouter du temps…',
  'tray.open': 'Ouvrir Tock',
  'tray.quit': 'Quitter Tock',
  'reminder.title': 'Aucun suivi en cours',
  'reminder.body.continue': 'Rien n’a été suivi depuis {minutes, plural, one {# minute} other {# minutes}}. Continuer « {activity} » ?',
  'reminder.body.start': 'Rien n’a été suivi depuis {minutes, plural, one {# minute} other {# minutes}}. Démarrez une activité dans Tock.',
  'reminder.forgotten': '{untracked} non suivi aujourd’hui : consultez {count, plural, one {# suggestion} other {# suggestions}} dans Tock.',
  'reminder.action.continue': 'Continuer',
  'budget.title.usedUp': '{activity} : budget épuisé',
  'budget.title.share': '{activity} : {percent} % du budget',
  'budget.body': 'Temps travaillé : {used} sur un budget de {budget}.',
} satisfies Catalog<typeof en>;
