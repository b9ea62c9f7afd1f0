/** Die Gründe, die die App als Codes neben ihrem Englisch sendet: Fehler des Anmeldedatenspeichers und Ablehnungen der Editor-Schnittstelle (Begriffe nach docs/glossary/de.md). */
import type { Catalog } from '@tock/i18n';
import type { problems as en } from '../en/problems.ts';

export const problems = {
  'problem.reason.credential_no_session': 'Kein dauerhafter Anmeldedatenspeicher ist erreichbar (keine D-Bus-Sitzung, also kein Secret Service). Setzen Sie TOCK_CREDENTIAL_STORE=file (oder wählen Sie unter Einstellungen › Integrationen den Dateispeicher), um es stattdessen in einer Datei mit Modus 0600 im Tock-Verzeichnis aufzubewahren',
  'problem.reason.credential_os_failed': '{store} konnte {secret, select, token {das Token} editor_key {den Editor-Schlüssel} sync_key {den Ordnerschlüssel} other {ein Geheimnis}} nicht {action, select, read {lesen} store {speichern} other {löschen}} ({error}). Entsperren Sie ihn und versuchen Sie es erneut, oder setzen Sie TOCK_CREDENTIAL_STORE=file (oder wählen Sie unter Einstellungen › Integrationen den Dateispeicher), um es in einer Datei mit Modus 0600 im Tock-Verzeichnis aufzubewahren',
  'problem.reason.credential_store_setting': 'TOCK_CREDENTIAL_STORE muss „os“ oder „file“ sein, nicht „{value}“',
  'problem.reason.editor_key_missing': 'Senden Sie den Editor-Schlüssel: api_key in ~/.wakatime.cfg (`{command}` schreibt ihn)',
  'problem.reason.editor_key_wrong': 'Der Editor-Schlüssel ist falsch; `{command}` gibt den richtigen aus',
  'problem.reason.editor_locked_out': 'Zu viele falsche Editor-Schlüssel; versuchen Sie es in {seconds} s erneut',
  'problem.reason.editor_host': 'Der Host-Header muss 127.0.0.1:{port} oder localhost:{port} lauten',
  'problem.reason.editor_web_page': 'Anfragen von Webseiten werden abgelehnt; Editoren senden Heartbeats über wakatime-cli, Browser über die WakaTime-Erweiterung',
  'problem.reason.editor_not_json': '{what, select, type {Ein Anfragetext muss mit Content-Type: application/json gesendet werden} other {Der Anfragetext ist kein gültiges UTF-8-JSON}}',
  'problem.reason.editor_body_shape': '{shape, select, array {Der Text muss ein JSON-Array mit 1 bis 1000 Heartbeats sein} object {Der Text muss ein einzelner Heartbeat sein, ein JSON-Objekt} other {Der Text muss Heartbeats als JSON enthalten}}',
  'problem.reason.editor_too_many': 'Höchstens {max} Heartbeats in einer Anfrage; senden Sie den Rest in einer weiteren',
  'problem.reason.editor_too_large': 'Der Anfragetext ist größer als {mib} MiB',
  'problem.reason.editor_heartbeat': 'Ein Heartbeat wurde abgelehnt: {error}',
  'problem.device.device_not_folder': '{folder} ist {kind, select, symlink {ein symbolischer Link} fifo {ein FIFO} socket {ein Socket} device {ein Gerät} other {keine reguläre Datei}}, kein Ordner; er wird nicht gelesen',
  'problem.device.device_file_missing': 'noch keine device.json',
  'problem.device.device_file_not_json': 'device.json ist kein JSON',
  'problem.device.device_file_shape': 'device.json hat keine deviceID und keinen Namen',
  'problem.device.device_file_other_id': 'device.json gibt sich als Gerät {claimed} aus, nicht als {deviceID} dieses Ordners; sein Protokoll wird nicht angewendet',
  'problem.device.device_segment_not_file': 'Segment {segment} ist {kind, select, symlink {ein symbolischer Link} fifo {ein FIFO} socket {ein Socket} device {ein Gerät} folder {ein Ordner} other {keine reguläre Datei}}, keine reguläre Datei; es wird nicht gelesen, und das Anwenden seines Protokolls hält dort an',
  'problem.device.device_line_held': '{segment} Zeile {line}: {reason}; seine Änderungen ab dort warten, bis diese Rechnung storniert ist',
} as const satisfies Catalog<typeof en>;
