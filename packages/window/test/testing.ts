/**
 * What the window offers other packages' tests (`@tock/window/testing`): its catalogs, which the
 * app's window tests compare with what the running window shows.
 */
export { de } from '../src/i18n/de.ts';
export { en } from '../src/i18n/en.ts';
export { es } from '../src/i18n/es.ts';
export { fr } from '../src/i18n/fr.ts';
export { ja } from '../src/i18n/ja.ts';
