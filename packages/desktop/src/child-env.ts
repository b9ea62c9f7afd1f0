/**
 * The environment of every process Tock starts (docs/security.md "Version 3: the trust
 * review"): a browser, `xdg-open`, a notifier, a desktop helper, a service manager. No secret
 * reaches one: the listener token a shell may hold for the clients (`SERVICE_TOKEN`) and any
 * Tock variable that names a token, secret, password or key is left out. Configuration stays
 * (`TOCK_HOME`, which the service unit's `tock app` needs, and a notifier's own
 * `TOCK_NOTIFY_*`), as does what helpers need to reach the desktop (`HOME`, `PATH`,
 * `XDG_RUNTIME_DIR`, `DBUS_SESSION_BUS_ADDRESS`, `DISPLAY`).
 */

/** A variable that holds a secret: never passed to a child. */
export function isSecretVariable(name: string): boolean {
  const upper = name.toUpperCase();
  if (upper === 'SERVICE_TOKEN') return true;
  // TOCK_LICENSE_PUBLIC_KEY is a public key, configuration: kept.
  return upper.startsWith('TOCK_') && /TOKEN|SECRET|PASSWORD|PRIVATE|SYNC_KEY|FOLDER_KEY/.test(upper);
}

/** `env` without any secret (see {@link isSecretVariable}): the environment of a child process. */
export function childEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (!isSecretVariable(name)) out[name] = value;
  }
  return out;
}
