/** The app's version, as reported by `GET /healthcheck`. Read once from the repository's package.json. */
import { readFileSync } from 'node:fs';

export const APP_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
