/** Los motivos que la app envía como códigos junto a su inglés: errores del almacén de credenciales y rechazos de la puerta de los editores (términos según docs/glossary/es.md). */
import type { Catalog } from '@tock/i18n';
import type { problems as en } from '../en/problems.ts';

export const problems = {
  'problem.reason.credential_no_session': 'no se puede acceder a ningún almacén de credenciales persistente (no hay sesión de D-Bus, así que no hay Secret Service); defina TOCK_CREDENTIAL_STORE=file (o elija el almacén en archivo en Ajustes › Integraciones) para guardarlo en cambio en un archivo con modo 0600 en la carpeta de Tock',
  'problem.reason.credential_os_failed': '{store} no pudo {action, select, read {leer} store {guardar} other {eliminar}} {secret, select, token {el token} editor_key {la clave de los editores} sync_key {la clave de la carpeta} other {un secreto}} ({error}); desbloquéelo e inténtelo de nuevo, o defina TOCK_CREDENTIAL_STORE=file (o elija el almacén en archivo en Ajustes › Integraciones) para guardarlo en un archivo con modo 0600 en la carpeta de Tock',
  'problem.reason.credential_store_setting': 'TOCK_CREDENTIAL_STORE debe ser «os» o «file», no «{value}»',
  'problem.reason.editor_key_missing': 'envíe la clave de los editores: api_key en ~/.wakatime.cfg (`{command}` la escribe)',
  'problem.reason.editor_key_wrong': 'la clave de los editores es incorrecta; `{command}` muestra la correcta',
  'problem.reason.editor_locked_out': 'demasiadas claves de los editores incorrectas; inténtelo de nuevo en {seconds} s',
  'problem.reason.editor_host': 'la cabecera Host debe ser 127.0.0.1:{port} o localhost:{port}',
  'problem.reason.editor_web_page': 'se rechazan las solicitudes de páginas web; los editores envían heartbeats mediante wakatime-cli y los navegadores mediante la extensión de WakaTime',
  'problem.reason.editor_not_json': '{what, select, type {el cuerpo de una solicitud debe enviarse con Content-Type: application/json} other {el cuerpo de la solicitud no es JSON UTF-8 válido}}',
  'problem.reason.editor_body_shape': '{shape, select, array {el cuerpo debe ser un array JSON de 1 a 1000 heartbeats} object {el cuerpo debe ser un solo heartbeat, un objeto JSON} other {el cuerpo debe contener heartbeats en JSON}}',
  'problem.reason.editor_too_many': 'como máximo {max} heartbeats por solicitud; envíe el resto en otra',
  'problem.reason.editor_too_large': 'el cuerpo de la solicitud supera {mib} MiB',
  'problem.reason.editor_heartbeat': 'se rechazó un heartbeat: {error}',
  'problem.device.device_not_folder': '{folder} es {kind, select, symlink {un enlace simbólico} fifo {un FIFO} socket {un socket} device {un dispositivo} other {algo distinto de un archivo normal}}, no una carpeta; no se lee',
  'problem.device.device_file_missing': 'todavía no hay device.json',
  'problem.device.device_file_not_json': 'device.json no es JSON',
  'problem.device.device_file_shape': 'device.json no tiene deviceID ni nombre',
  'problem.device.device_file_other_id': 'device.json dice ser el dispositivo {claimed}, no el {deviceID} de la carpeta; su registro no se aplica',
  'problem.device.device_segment_not_file': 'el segmento {segment} es {kind, select, symlink {un enlace simbólico} fifo {un FIFO} socket {un socket} device {un dispositivo} folder {una carpeta} other {algo distinto de un archivo normal}}, no un archivo normal; no se lee y la aplicación de su registro se detiene ahí',
  'problem.device.device_line_held': '{segment} línea {line}: {reason}; sus cambios desde ahí esperan hasta que se anule esa factura',
} as const satisfies Catalog<typeof en>;
