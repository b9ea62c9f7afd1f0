/**
 * Talking to the app: JSON requests to `/api/...` (same origin, the session cookie rides
 * along) and the event stream. A failure becomes an {@link ApiError} whose message is the
 * app's own one-line explanation, with per-field details for forms.
 */
import type { FieldProblem } from './types.ts';

/** A request the app refused or could not answer. */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly details: FieldProblem[];

  constructor(status: number, code: string, message: string, details: FieldProblem[] = []) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }

  /** The message about one field, if the app gave one. */
  about(field: string): string | undefined {
    return this.details.find((d) => d.field === field)?.message;
  }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, 'offline', 'Tock is not answering: is the app still running?');
  }
  let json: { ok?: boolean; result?: T; error?: string; code?: string; details?: FieldProblem[] } = {};
  try {
    json = (await res.json()) as typeof json;
  } catch {
    // fall through to the generic message
  }
  if (!res.ok || json.ok !== true) {
    throw new ApiError(res.status, json.code ?? 'error', json.error ?? `Tock answered ${res.status}`, json.details ?? []);
  }
  return json.result as T;
}

/** The window's API calls by method; each resolves to the `result` or throws an {@link ApiError}. */
export const api = {
  get: <T>(path: string): Promise<T> => call<T>('GET', path),
  post: <T>(path: string, body: unknown = {}): Promise<T> => call<T>('POST', path, body),
  patch: <T>(path: string, body: unknown): Promise<T> => call<T>('PATCH', path, body),
  del: <T>(path: string): Promise<T> => call<T>('DELETE', path),
};

/** The message to show for any thrown value. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
