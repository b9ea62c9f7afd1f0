/** The desktop's Spanish messages («usted»; terms as docs/glossary/es.md has them). */
import type { Catalog } from '@tock/i18n';
import type { en } from './en.ts';

export const es = {
  'tray.status.idle': 'Sin registro · hoy {today}',
  'tray.status.tracking': '{activity} · {session} · hoy {today}',
  'tray.status.onBreak': 'En pausa de {activity} · {session} · hoy {today}',
  'tray.stop': 'Detener',
  'tray.break': 'Tomar una pausa',
  'tray.resume': 'Reanudar',
  'tray.continue': 'Continuar {activity}',
  'tray.start': 'Iniciar',
  'tray.log': 'Añadir tiempo…',
  'tray.open': 'Abrir Tock',
  'tray.quit': 'Salir de Tock',
  'reminder.title': 'No se está registrando nada',
  'reminder.body.continue': 'No se ha registrado nada en {minutes, plural, one {# minuto} other {# minutos}}. ¿Desea continuar «{activity}»?',
  'reminder.body.start': 'No se ha registrado nada en {minutes, plural, one {# minuto} other {# minutos}}. Inicie una actividad en Tock.',
  'reminder.forgotten': '{untracked} sin registrar hoy: revise {count, plural, one {# sugerencia} other {# sugerencias}} en Tock.',
  'reminder.action.continue': 'Continuar',
  'budget.title.usedUp': '{activity}: presupuesto agotado',
  'budget.title.share': '{activity}: {percent} % del presupuesto',
  'budget.body': 'Tiempo trabajado: {used} de un presupuesto de {budget}.',
} satisfies Catalog<typeof en>;
