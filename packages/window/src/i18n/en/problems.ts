/** The reasons the app sends as codes beside its English (docs/i18n.md "What the app sends as codes"): the credential store's errors and the editors' door's refusals (@tock/protocol's `ProblemReason`). */
export const problems = {
  'problem.reason.credential_no_session': 'no persistent credential store is reachable (no D-Bus session, so no Secret Service); set TOCK_CREDENTIAL_STORE=file (or choose the file store in Settings › Integrations) to keep it in a 0600 file under the Tock home instead',
  'problem.reason.credential_os_failed': 'the {store} could not {action, select, read {read} store {store} other {delete}} {secret, select, token {the token} editor_key {the editor key} sync_key {the sync folder key} other {a secret}} ({error}); unlock it and try again, or set TOCK_CREDENTIAL_STORE=file (or choose the file store in Settings › Integrations) to keep it in a 0600 file under the Tock home instead',
  'problem.reason.credential_store_setting': 'TOCK_CREDENTIAL_STORE must be "os" or "file", not "{value}"',
  'problem.reason.editor_key_missing': 'send the editor key: api_key in ~/.wakatime.cfg (`{command}` writes it)',
  'problem.reason.editor_key_wrong': 'the editor key is wrong; `{command}` prints the right one',
  'problem.reason.editor_locked_out': 'too many wrong editor keys; try again in {seconds} s',
  'problem.reason.editor_host': 'the Host header must be 127.0.0.1:{port} or localhost:{port}',
  'problem.reason.editor_web_page': 'requests from web pages are refused; editors send heartbeats through wakatime-cli, browsers through the WakaTime extension',
  'problem.reason.editor_not_json': '{what, select, type {a request body must be sent with Content-Type: application/json} other {the request body is not valid UTF-8 JSON}}',
  'problem.reason.editor_body_shape': '{shape, select, array {the body must be a JSON array of 1 to 1000 heartbeats} object {the body must be one heartbeat, a JSON object} other {the body must hold heartbeats as JSON}}',
  'problem.reason.editor_too_many': 'at most {max} heartbeats in one request; send the rest in another',
  'problem.reason.editor_too_large': 'the request body is larger than {mib} MiB',
  'problem.reason.editor_heartbeat': 'a heartbeat was refused: {error}',
} as const;
