/**
 * Talking to the app: JSON requests to `/api/...` (same origin, with this window's session
 * secret in `X-Tock-Session`; no cookie carries anything), named by their route in the window
 * API's contract (`@tock/window/contract`, contract/routes.ts) — the params,
 * body and query a route takes and the result it answers are the contract's types, the ones the
 * server's routes are checked against. A failure becomes an {@link ApiError} whose message is
 * the app's own one-line explanation, with per-field details for forms.
 */
import { routeParts, type WindowBodyOf, type WindowParamsOf, type WindowQuerySent, type WindowResult, type WindowRouteKey } from './contract/index.ts';
import { type MessageKey, windowMessages } from './i18n/index.ts';
import { reasonText } from './problem-words.ts';
import { sentence } from './sentence.ts';
import { sessionHeaders } from './session.ts';
import type { FieldProblem } from './types.ts';
import type { FieldRule, FieldRuleCode, ProblemCode, ProblemReason } from '@tock/protocol';
import { type RuleKey, wordRule } from '@tock/i18n/rules/words';
import { PROBLEM_CODE_KEYS, type SyncReasonKeyCode, wordSyncReason } from '@tock/i18n/problems/words';
import type { SyncReason, SyncReasonCode } from '@tock/sync/status';

/**
 * Every problem code, by the window's words for it (never by reading the server's text): in
 * English the server's own line is kept (it names the thing at hand); in another language the
 * words for the code stand in for it. The codes the CLI words alike, or leaves to the app's line
 * (`null`: worded by the `rule` or `because` codes it carries, or it never reaches the window),
 * are @tock/i18n's {@link PROBLEM_CODE_KEYS}; below them the window's own sentences. A new code
 * in @tock/protocol fails `tsc` here until it is decided.
 */
export const PROBLEM_KEYS: Readonly<Record<ProblemCode, MessageKey | null>> = {
  ...PROBLEM_CODE_KEYS,
  activity_not_found: 'problem.activity_not_found',
  invoiced: 'problem.invoiced',
  payload_too_large: 'problem.payload_too_large',
  license_locked: 'problem.license_locked',
  internal_error: 'problem.internal_error',
  storage_full: 'problem.storage_full',
};

/** The window's words for a problem `code` in its language now, or null to show the server's `message`. */
function problemText(code: string): string | null {
  const t = windowMessages();
  const key = Object.hasOwn(PROBLEM_KEYS, code) ? PROBLEM_KEYS[code as ProblemCode] : null;
  if (t.locale === 'en' || key === null) return null;
  return sentence(t(key));
}

/** Every rule code has its words: a new rule code in @tock/protocol fails `tsc` here until it has a key. */
const EVERY_RULE_WORDED: `rule.${FieldRuleCode}` extends RuleKey ? true : never = true;
void EVERY_RULE_WORDED;

/**
 * A refused field's rule in the window's language from the code and values the app sends
 * beside its English (@tock/protocol's `fieldRule`); undefined in English (the app's line
 * stays) and for a code or values the catalog cannot say.
 */
function ruleText(rule: FieldRule): string | undefined {
  const t = windowMessages();
  return t.locale === 'en' ? undefined : wordRule(t, rule);
}

/**
 * The line of a `validation_failed` about its first field (`name: <rule>`), or of a refusal the
 * app says whole by its first detail's `line` (any code: @tock/protocol's `ruleLine`), in the
 * window's language; null to show the app's.
 */
function validationText(code: string, details: FieldProblem[]): string | null {
  const first = details[0];
  if (first?.line !== undefined) return ruleText(first.line) ?? null;
  if (code !== 'validation_failed' || first?.rule === undefined) return null;
  const words = ruleText(first as FieldRule);
  return words === undefined ? null : windowMessages()('rule.field', { field: first.field, rule: words });
}

/** Every sync problem has its words (`sync.reason.*`): a new code in @tock/sync fails `tsc` here until it has a key. */
const EVERY_SYNC_PROBLEM_WORDED: SyncReasonCode extends SyncReasonKeyCode ? true : never = true;
void EVERY_SYNC_PROBLEM_WORDED;

/**
 * The sync folder's problem in the window's language, by the code and values the app sends
 * beside its English (`problemReason`); `english` in English, without a code, or for a code or
 * values the catalog cannot say.
 */
export function syncProblemText(reason: SyncReason | null | undefined, english: string): string {
  const t = windowMessages();
  return t.locale === 'en' ? english : (wordSyncReason(t, reason) ?? english);
}

/**
 * A request the app refused or could not answer. Its message and its fields' messages are
 * the app's words as sentences ({@link sentence}), or the window's for a code it words itself
 * ({@link problemText}): this is where the window turns a refusal into text.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly details: FieldProblem[];

  constructor(status: number, code: string, message: string, details: FieldProblem[] = [], because?: ProblemReason) {
    // A line said whole names what the code's own words cannot (the activity's name): it comes first.
    const line = details[0]?.line === undefined ? null : validationText(code, details);
    super(line !== null ? sentence(line) : (problemText(code) ?? sentence(validationText(code, details) ?? reasonText(because) ?? message)));
    this.status = status;
    this.code = code;
    this.details = details.map((d) => ({ ...d, message: sentence((d.line === undefined ? undefined : ruleText(d.line)) ?? (d.rule === undefined ? undefined : ruleText(d as FieldRule)) ?? d.message) }));
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
    throw new ApiError(0, 'offline', windowMessages()('problem.offline'));
  }
  let json: { ok?: boolean; result?: T; error?: string; code?: string; details?: FieldProblem[]; because?: ProblemReason } = {};
  try {
    json = (await res.json()) as typeof json;
  } catch {
    // fall through to the generic message
  }
  if (!res.ok || json.ok !== true) {
    throw new ApiError(res.status, json.code ?? 'error', json.error ?? windowMessages()('problem.status', { status: res.status }), json.details ?? [], json.because);
  }
  return json.result as T;
}

/** What a request to route `K` sends: its path's params (when it has any), its body, its query. */
export type RequestInput<K extends WindowRouteKey> = (keyof WindowParamsOf<K> extends never ? { params?: undefined } : { params: WindowParamsOf<K> }) & {
  body?: WindowBodyOf<K>;
  query?: WindowQuerySent<K>;
};

type InputArgs<K extends WindowRouteKey> = keyof WindowParamsOf<K> extends never ? [input?: RequestInput<K>] : [input: RequestInput<K>];

/** The path of route `key` with its params filled in and its query (values left out when undefined): `/api/blocks?from=…&to=…`. */
export function pathOf<K extends WindowRouteKey>(key: K, ...[input]: InputArgs<K>): string {
  const params = (input?.params ?? {}) as Record<string, string>;
  const path = routeParts(key).pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries((input?.query ?? {}) as Record<string, unknown>)) {
    if (value !== undefined && value !== null) query.set(name, String(value));
  }
  const text = query.toString();
  return text === '' ? path : `${path}?${text}`;
}

/** Calls route `key`; resolves to its `result` (the contract's type) or throws an {@link ApiError}. */
export function request<K extends WindowRouteKey>(key: K, ...args: InputArgs<K>): Promise<WindowResult<K>> {
  const body = args[0]?.body;
  const { method } = routeParts(key);
  return call<WindowResult<K>>(method, pathOf(key, ...args), body ?? (method === 'GET' || method === 'DELETE' ? undefined : {}));
}

/** Sends a file as the body of route `key` (application/octet-stream), as Settings › Data's import does. */
export function upload<K extends WindowRouteKey>(key: K, file: Blob, ...args: InputArgs<K>): Promise<WindowResult<K>> {
  return call<WindowResult<K>>(routeParts(key).method, pathOf(key, ...args), undefined, file);
}

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
    throw new ApiError(0, 'offline', windowMessages()('problem.offline'));
  }
  if (!res.ok) {
    let json: { error?: string; code?: string; details?: FieldProblem[]; because?: ProblemReason } = {};
    try {
      json = (await res.json()) as typeof json;
    } catch {
      // fall through to the generic message
    }
    // Its rule or reason beside the line, as a request's (an export the store cannot write: `export_failed`).
    throw new ApiError(res.status, json.code ?? 'error', json.error ?? windowMessages()('problem.status', { status: res.status }), json.details ?? [], json.because);
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
