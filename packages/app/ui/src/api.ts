/**
 * Talking to the app: JSON requests to `/api/...` (same origin, with this window's session
 * secret in `X-Tock-Session`; no cookie carries anything). A failure becomes an
 * {@link ApiError} whose message is the app's own one-line explanation, with per-field details
 * for forms.
 */
import { sessionHeaders } from './session.ts';
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

async function call<T>(method: string, path: string, body?: unknown, file?: Blob): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers:
        file !== undefined
          ? { ...sessionHeaders(), 'content-type': 'application/octet-stream' }
          : body === undefined
            ? sessionHeaders()
            : { ...sessionHeaders(), 'content-type': 'application/json' },
      body: file ?? (body === undefined ? undefined : JSON.stringify(body)),
      credentials: 'omit',
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
  put: <T>(path: string, body: unknown): Promise<T> => call<T>('PUT', path, body),
  del: <T>(path: string): Promise<T> => call<T>('DELETE', path),
  /** Sends a file as the body (application/octet-stream), as Settings › Data's import does. */
  upload: <T>(path: string, file: Blob): Promise<T> => call<T>('POST', path, undefined, file),
};

/**
 * Downloads `path` (a CSV route) with the session header and hands it to the browser as a
 * file, named as the app's `Content-Disposition` says. A link cannot send the header, so the
 * download goes through `fetch` and a `blob:` address.
 */
export async function download(path: string): Promise<void> {
  let res: Response;
  try {
    res = await fetch(path, { headers: sessionHeaders(), credentials: 'omit', cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'offline', 'Tock is not answering: is the app still running?');
  }
  if (!res.ok) {
    let json: { error?: string; code?: string } = {};
    try {
      json = (await res.json()) as typeof json;
    } catch {
      // fall through to the generic message
    }
    throw new ApiError(res.status, json.code ?? 'error', json.error ?? `Tock answered ${res.status}`);
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'tock.csv';
  const href = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

/** The message to show for any thrown value. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
