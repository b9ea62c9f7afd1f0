/** The app's version, as reported by `GET /healthcheck` and `tock --version`. Read once from Tock's package.json. */
import { readFileSync } from 'node:fs';
import { PACKAGE_FILES } from './package-files.ts';

export const APP_VERSION: string = (JSON.parse(readFileSync(PACKAGE_FILES.manifest, 'utf8')) as { version: string }).version;
