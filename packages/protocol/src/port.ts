/**
 * The one reader of a port (docs/protocol.md "Listener basics"): the CLI's `--port`, the
 * clients' `port` option and `SERVICE_PORT`, the VS Code setting, the app's listener switch
 * and the admin socket's `POST /listener/on` all ask these two functions. Pure.
 */
import { MAX_PORT } from './constants.ts';

/** True for a port number: an integer from `min` (default 1; the listener takes 1024 up) to 65535. */
export function isPort(value: unknown, min = 1): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= MAX_PORT;
}

/**
 * A port written as text (a flag, an environment variable): one to five decimal digits, as
 * given (no sign, space or exponent), within {@link isPort}'s range; `undefined` otherwise.
 */
export function parsePort(text: string, min = 1): number | undefined {
  if (!/^[0-9]{1,5}$/.test(text)) return undefined;
  const port = Number(text);
  return isPort(port, min) ? port : undefined;
}
