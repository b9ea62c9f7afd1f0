/**
 * The font a Japanese invoice is drawn in (docs/i18n.md "Invoices"): pdf-lib's standard fonts
 * draw Windows-1252 only, so a Japanese PDF embeds BIZ UDPGothic (Morisawa's universal-design
 * gothic, SIL Open Font License; the TTFs come from the npm package
 * `@expo-google-fonts/biz-udpgothic`, so no system font is needed) through `@pdf-lib/fontkit`,
 * subset to the characters the invoice draws so the file stays small.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type fontkitModule from '@pdf-lib/fontkit';
import { PACKAGE_FILES } from '@tock/admin/package-files';

/** The two faces' bytes and the fontkit pdf-lib embeds them with. */
export interface JapaneseFonts {
  fontkit: typeof fontkitModule;
  regular: Uint8Array;
  bold: Uint8Array;
}

let loaded: Promise<JapaneseFonts> | undefined;

/** The Japanese faces, read once (4.5 MB each) on the first Japanese invoice and kept. */
export function japaneseFonts(): Promise<JapaneseFonts> {
  loaded ??= (async () => {
    // Through the one resolver: the bundle of the npm tarball and the .deb has no node_modules to resolve in.
    const face = (path: string): Promise<Buffer> => readFile(join(PACKAGE_FILES.japaneseFont, path));
    const [{ default: fontkit }, regular, bold] = await Promise.all([
      import('@pdf-lib/fontkit'),
      face('400Regular/BIZUDPGothic_400Regular.ttf'),
      face('700Bold/BIZUDPGothic_700Bold.ttf'),
    ]);
    return { fontkit, regular, bold };
  })();
  return loaded;
}
