/** The words of the app's own page for a window address it refuses, in Japanese (docs/glossary/ja.md). */
import type { Catalog } from '@tock/i18n';
import type { en } from './en.ts';

export const ja = {
  'refused.used': 'この Tock のアドレスは使用済みです。各アドレスでウィンドウを開けるのは 1 回だけです。`tock open` を実行するか、システムトレイの「Tock を開く」を選んで新しいウィンドウを開いてください。',
  'refused.expired': 'この Tock のアドレスは有効期限が切れています。各アドレスは作成から 5 分間有効です。`tock open` を実行するか、システムトレイの「Tock を開く」を選んで新しいウィンドウを開いてください。',
  'refused.unknown': 'この Tock のアドレスは実行中のアプリが作成したものではありません（以前の起動時のものかもしれません）。`tock open` を実行するか、システムトレイの「Tock を開く」を選んで新しいウィンドウを開いてください。',
} as const satisfies Catalog<typeof en>;
