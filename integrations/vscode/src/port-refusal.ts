/** The failure of a port that is not one, kept apart so that the connection and the explanation both read it. */
import { TockError } from '@tock/client';
import { MAX_PORT } from '@tock/protocol';

/**
 * A port that is not one (`invalid_port`), and where it came from: the explanation (explain.ts)
 * says it in the editor's language from `source` and `given`, never from the English message.
 */
export class PortRefusal extends TockError {
  override name = 'PortRefusal' as const;
  /** The `tock.port` setting, or `SERVICE_PORT` in the editor's environment. */
  readonly source: 'setting' | 'environment';
  /** What was given, cut to 20 characters (the setting as written; the variable quoted). */
  readonly given: string;

  constructor(source: 'setting' | 'environment', given: string) {
    super(
      source === 'setting'
        ? `the tock.port setting (${given}) is not a port: use an integer from 1 to ${MAX_PORT}, or clear it`
        : `SERVICE_PORT=${given} is not a port: set the tock.port setting to the listener's port (\`tock listener status\` shows it)`,
      { code: 'invalid_port' },
    );
    this.source = source;
    this.given = given;
  }
}
