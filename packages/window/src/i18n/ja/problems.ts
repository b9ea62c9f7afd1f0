/** アプリが英語の文と並べてコードで送る理由：資格情報ストアのエラーとエディター窓口の拒否（用語は docs/glossary/ja.md による）。 */
import type { Catalog } from '@tock/i18n';
import type { problems as en } from '../en/problems.ts';

export const problems = {
  'problem.reason.credential_no_session': '永続的な資格情報ストアに接続できません（D-Bus セッションがないため Secret Service もありません）。代わりに Tock のホーム内のモード 0600 のファイルに保管するには、TOCK_CREDENTIAL_STORE=file を設定してください（または 設定 › 連携 でファイルストアを選んでください）',
  'problem.reason.credential_os_failed': '{store} が{secret, select, token {トークン} editor_key {エディターキー} sync_key {フォルダーキー} other {秘密情報}}を{action, select, read {読み取れ} store {保存でき} other {削除でき}}ませんでした（{error}）。ロックを解除してもう一度お試しいただくか、TOCK_CREDENTIAL_STORE=file を設定して（または 設定 › 連携 でファイルストアを選んで）Tock のホーム内のモード 0600 のファイルに保管してください',
  'problem.reason.credential_store_setting': 'TOCK_CREDENTIAL_STORE は「os」か「file」にしてください（「{value}」は使えません）',
  'problem.reason.editor_key_missing': 'エディターキーを送ってください：~/.wakatime.cfg の api_key（`{command}` が書き込みます）',
  'problem.reason.editor_key_wrong': 'エディターキーが違います。`{command}` で正しいキーを表示できます',
  'problem.reason.editor_locked_out': '誤ったエディターキーが多すぎます。{seconds} 秒後にもう一度お試しください',
  'problem.reason.editor_host': 'Host ヘッダーは 127.0.0.1:{port} か localhost:{port} でなければなりません',
  'problem.reason.editor_web_page': 'ウェブページからのリクエストは拒否されます。エディターは wakatime-cli 経由で、ブラウザーは WakaTime 拡張機能経由でハートビートを送ります',
  'problem.reason.editor_not_json': '{what, select, type {リクエスト本文は Content-Type: application/json で送ってください} other {リクエスト本文が有効な UTF-8 の JSON ではありません}}',
  'problem.reason.editor_body_shape': '{shape, select, array {本文は 1〜1000 件のハートビートの JSON 配列でなければなりません} object {本文は 1 件のハートビート（JSON オブジェクト）でなければなりません} other {本文にはハートビートを JSON で入れてください}}',
  'problem.reason.editor_too_many': '1 回のリクエストで送れるハートビートは {max} 件までです。残りは別のリクエストで送ってください',
  'problem.reason.editor_too_large': 'リクエスト本文が {mib} MiB を超えています',
  'problem.reason.editor_heartbeat': 'ハートビートが拒否されました：{error}',
  'problem.device.device_not_folder': '{folder} は{kind, select, symlink {シンボリックリンク} fifo {FIFO} socket {ソケット} device {デバイス} other {通常のファイル以外}}で、フォルダーではありません。読み込みません',
  'problem.device.device_file_missing': 'device.json はまだありません',
  'problem.device.device_file_not_json': 'device.json が JSON ではありません',
  'problem.device.device_file_shape': 'device.json に deviceID と名前がありません',
  'problem.device.device_file_other_id': 'device.json はデバイス {claimed} を名乗っていますが、このフォルダーの {deviceID} ではありません。このログは適用しません',
  'problem.device.device_segment_not_file': 'セグメント {segment} は{kind, select, symlink {シンボリックリンク} fifo {FIFO} socket {ソケット} device {デバイス} folder {フォルダー} other {通常のファイル以外}}で、通常のファイルではありません。読み込まず、このログの適用はそこで止まります',
  'problem.device.device_line_held': '{segment} の {line} 行目：{reason}。ここから先の変更は、その請求書が取り消されるまで待機します',
} as const satisfies Catalog<typeof en>;
