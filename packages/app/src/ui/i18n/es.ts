/** The words of the app's own page for a window address it refuses, in Spanish (docs/glossary/es.md). */
import type { Catalog } from '@tock/i18n';
import type { en } from './en.ts';

export const es = {
  'refused.used': 'Esta dirección de Tock ya se usó: cada una abre una ventana una sola vez. Ejecute `tock open` o elija «Abrir Tock» en la bandeja del sistema para abrir una ventana nueva.',
  'refused.expired': 'Esta dirección de Tock ha caducado: cada una es válida durante 5 minutos desde que se creó. Ejecute `tock open` o elija «Abrir Tock» en la bandeja del sistema para abrir una ventana nueva.',
  'refused.unknown': 'Esta dirección de Tock no la creó la aplicación en ejecución (puede ser de un inicio anterior). Ejecute `tock open` o elija «Abrir Tock» en la bandeja del sistema para abrir una ventana nueva.',
} as const satisfies Catalog<typeof en>;
