/** The words of the app's own page for a window address it refuses, in French (docs/glossary/fr.md). */
import type { Catalog } from '@tock/i18n';
import type { en } from './en.ts';

export const fr = {
  'refused.used': 'Cette adresse Tock a déjà servi : chacune n’ouvre qu’une fenêtre, une seule fois. Exécutez `tock open` ou choisissez « Ouvrir Tock » dans la zone de notification pour ouvrir une nouvelle fenêtre.',
  'refused.expired': 'Cette adresse Tock a expiré : chacune n’est valable que 5 minutes après sa création. Exécutez `tock open` ou choisissez « Ouvrir Tock » dans la zone de notification pour ouvrir une nouvelle fenêtre.',
  'refused.unknown': 'Cette adresse Tock ne vient pas de l’application en cours (elle date peut-être d’un lancement précédent). Exécutez `tock open` ou choisissez « Ouvrir Tock » dans la zone de notification pour ouvrir une nouvelle fenêtre.',
} as const satisfies Catalog<typeof en>;
