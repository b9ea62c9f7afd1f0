/** Les raisons que l’app envoie en codes à côté de son anglais : erreurs du trousseau et refus de la porte des éditeurs (termes selon docs/glossary/fr.md). */
import type { Catalog } from '@tock/i18n';
import type { problems as en } from '../en/problems.ts';

export const problems = {
  'problem.reason.credential_no_session': 'aucun trousseau persistant n’est joignable (pas de session D-Bus, donc pas de Secret Service) ; définissez TOCK_CREDENTIAL_STORE=file (ou choisissez le stockage en fichier dans Réglages › Intégrations) pour le conserver plutôt dans un fichier en mode 0600 dans le dossier de Tock',
  'problem.reason.credential_os_failed': '{store} n’a pas pu {action, select, read {lire} store {enregistrer} other {supprimer}} {secret, select, token {le jeton} editor_key {la clé des éditeurs} sync_key {la clé du dossier} other {un secret}} ({error}) ; déverrouillez-le et réessayez, ou définissez TOCK_CREDENTIAL_STORE=file (ou choisissez le stockage en fichier dans Réglages › Intégrations) pour le conserver dans un fichier en mode 0600 dans le dossier de Tock',
  'problem.reason.credential_store_setting': 'TOCK_CREDENTIAL_STORE doit valoir « os » ou « file », et non « {value} »',
  'problem.reason.editor_key_missing': 'envoyez la clé des éditeurs : api_key dans ~/.wakatime.cfg (`{command}` l’écrit)',
  'problem.reason.editor_key_wrong': 'la clé des éditeurs est erronée ; `{command}` affiche la bonne',
  'problem.reason.editor_locked_out': 'trop de clés des éditeurs erronées ; réessayez dans {seconds} s',
  'problem.reason.editor_host': 'l’en-tête Host doit être 127.0.0.1:{port} ou localhost:{port}',
  'problem.reason.editor_web_page': 'les requêtes de pages web sont refusées ; les éditeurs envoient leurs heartbeats par wakatime-cli, les navigateurs par l’extension WakaTime',
  'problem.reason.editor_not_json': '{what, select, type {le corps d’une requête doit être envoyé avec Content-Type: application/json} other {le corps de la requête n’est pas du JSON UTF-8 valide}}',
  'problem.reason.editor_body_shape': '{shape, select, array {le corps doit être un tableau JSON de 1 à 1000 heartbeats} object {le corps doit être un seul heartbeat, un objet JSON} other {le corps doit contenir des heartbeats en JSON}}',
  'problem.reason.editor_too_many': '{max} heartbeats au plus par requête ; envoyez le reste dans une autre',
  'problem.reason.editor_too_large': 'le corps de la requête dépasse {mib} Mio',
  'problem.reason.editor_heartbeat': 'un heartbeat a été refusé : {error}',
  'problem.device.device_not_folder': '{folder} est {kind, select, symlink {un lien symbolique} fifo {un FIFO} socket {un socket} device {un périphérique} other {autre chose qu’un fichier ordinaire}}, pas un dossier ; il n’est pas lu',
  'problem.device.device_file_missing': 'pas encore de device.json',
  'problem.device.device_file_not_json': 'device.json n’est pas du JSON',
  'problem.device.device_file_shape': 'device.json n’a ni deviceID ni nom',
  'problem.device.device_file_other_id': 'device.json prétend être l’appareil {claimed}, et non {deviceID} du dossier ; son journal n’est pas appliqué',
  'problem.device.device_segment_not_file': 'le segment {segment} est {kind, select, symlink {un lien symbolique} fifo {un FIFO} socket {un socket} device {un périphérique} folder {un dossier} other {autre chose qu’un fichier ordinaire}}, pas un fichier ordinaire ; il n’est pas lu et l’application de son journal s’arrête là',
  'problem.device.device_line_held': '{segment} ligne {line} : {reason} ; ses modifications à partir de là attendent que cette facture soit annulée',
} as const satisfies Catalog<typeof en>;
