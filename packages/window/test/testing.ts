/**
 * What the window offers other packages' tests (`@tock/window/testing`): its catalogs, which the
 * app's window tests compare with what the running window shows.
 */
export { de } from '../src/i18n/de/index.ts';
export { en } from '../src/i18n/en/index.ts';
export { es } from '../src/i18n/es/index.ts';
export { fr } from '../src/i18n/fr/index.ts';
export { ja } from '../src/i18n/ja/index.ts';
