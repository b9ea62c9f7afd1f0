/**
 * Turns the constructor's options and the environment into a checked configuration.
 * Pure apart from reading the environment, and that reader is injectable.
 */

import { DEFAULT_PORT, MAX_PORT, isPort, parsePort } from '@tock/protocol';
import { TockError } from './errors.ts';

/** Environment variable holding the token when the constructor is not given one. */
export const TOKEN_ENV = 'SERVICE_TOKEN';
/** Environment variable holding the port when the constructor is not given one. */
export const PORT_ENV = 'SERVICE_PORT';
/** Per-request timeout when none is given, milliseconds. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** What `new TockClient(...)` accepts. Every field is optional. */
export interface TockClientOptions {
  /** The listener's token; default: the `SERVICE_TOKEN` environment variable. */
  token?: string | undefined;
  /** The listener's port on 127.0.0.1; default: `SERVICE_PORT`, else 39847. */
  port?: number | undefined;
  /** Per-request timeout in milliseconds (each attempt on its own); default 10000. */
  timeoutMs?: number | undefined;
  /** The `fetch` to use; default: the runtime's global `fetch`. */
  fetch?: typeof globalThis.fetch | undefined;
}

/** The checked configuration a client runs with. The token itself is not kept here. */
export interface ClientConfig {
  token: string;
  port: number;
  baseUrl: string;
  timeoutMs: number;
}

/** Reads one environment variable; `undefined` when unset or unreadable. */
export type EnvReader = (name: string) => string | undefined;

interface DenoEnvHost {
  Deno?: { env?: { get(name: string): string | undefined } };
  process?: { env?: Record<string, string | undefined> };
}

/**
 * Reads a variable from whichever runtime this is: `Deno.env.get` on Deno (a missing
 * `--allow-env` counts as unset), else `process.env` (Node, Bun). Never throws.
 */
export const readRuntimeEnv: EnvReader = (name) => {
  const host = globalThis as DenoEnvHost;
  try {
    if (host.Deno?.env) return host.Deno.env.get(name);
  } catch {
    return undefined;
  }
  try {
    return host.process?.env?.[name];
  } catch {
    return undefined;
  }
};

/**
 * Checks the options, falling back on the environment, and returns the configuration.
 * Throws `TockError` with code `missing_token`, `invalid_port` or `invalid_timeout`.
 */
export function resolveConfig(options: TockClientOptions, envReader: EnvReader = readRuntimeEnv): ClientConfig {
  const readEnv: EnvReader = (name) => {
    try {
      return envReader(name);
    } catch {
      return undefined;
    }
  };
  const token = options.token !== undefined ? options.token : readEnv(TOKEN_ENV);
  if (typeof token !== 'string' || token === '') {
    throw new TockError(
      `no Tock token: pass { token } or set ${TOKEN_ENV} (print it with \`tock token\`)`,
      { code: 'missing_token' },
    );
  }
  const port = resolvePort(options.port, readEnv);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new TockError('timeoutMs must be a positive number of milliseconds', { code: 'invalid_timeout' });
  }
  return { token, port, baseUrl: `http://127.0.0.1:${port}`, timeoutMs };
}

function resolvePort(given: unknown, readEnv: EnvReader): number {
  if (given !== undefined) {
    if (isPort(given)) return given;
    throw invalidPort(`port ${describe(given)}`);
  }
  const fromEnv = readEnv(PORT_ENV);
  if (fromEnv === undefined || fromEnv === '') return DEFAULT_PORT;
  const parsed = parsePort(fromEnv);
  if (parsed !== undefined) return parsed;
  throw invalidPort(`${PORT_ENV}=${describe(fromEnv)}`);
}

function invalidPort(what: string): TockError {
  return new TockError(`${what} is not a port: use an integer from 1 to ${MAX_PORT}`, { code: 'invalid_port' });
}

function describe(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 40 ? text.slice(0, 40) + '…' : text;
}
