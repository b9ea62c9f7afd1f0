/** The words of the app's own page for a window address it refuses, in German (docs/glossary/de.md). */
import type { Catalog } from '@tock/i18n';
import type { en } from './en.ts';

export const de = {
  'refused.used': 'Diese Tock-Adresse wurde bereits verwendet: Jede öffnet nur einmal ein Fenster. Führen Sie `tock open` aus oder wählen Sie „Tock öffnen“ im Infobereich, um ein neues Fenster zu öffnen.',
  'refused.expired': 'Diese Tock-Adresse ist abgelaufen: Jede gilt 5 Minuten lang, nachdem sie erstellt wurde. Führen Sie `tock open` aus oder wählen Sie „Tock öffnen“ im Infobereich, um ein neues Fenster zu öffnen.',
  'refused.unknown': 'Diese Tock-Adresse stammt nicht von der laufenden App (vielleicht von einem früheren Start). Führen Sie `tock open` aus oder wählen Sie „Tock öffnen“ im Infobereich, um ein neues Fenster zu öffnen.',
} as const satisfies Catalog<typeof en>;
