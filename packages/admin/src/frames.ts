/**
 * The admin socket's frames, shared by the app that answers and the CLI that asks (docs/decisions.md
 * "Streaming admin answers"): a JSON answer `{ok: true, result}` or `{ok: false, error, code,
 * field?, details?}`, and a streamed answer whose trailers say how it ended. A refusal comes back
 * to the caller as an {@link AdminError}, a `Problem` with the app's code and field.
 */
import { Problem, type FieldProblem, type ProblemCode, type ProblemOptions, type ProblemReason } from '@tock/protocol';

/** Trailer names of a streamed admin answer: how it ended, its failure's line and problem, its summary. */
export const STREAM_END = 'x-tock-stream-end';
export const STREAM_ERROR = 'x-tock-stream-error';
export const STREAM_SUMMARY = 'x-tock-stream-summary';
export const STREAM_PROBLEM = 'x-tock-stream-problem';

/**
 * A failure an admin command reports to the user as one line, with the CLI's exit status 1: a
 * {@link Problem}, `refused` unless a code is given. On the caller's side it is the app's
 * refusal as it was answered — its code, and the field it is about — so a command maps the
 * field to its flag without reading the message.
 */
export class AdminError extends Problem {
  override name = 'AdminError' as const;

  constructor(message: string, options: ProblemOptions & { code?: ProblemCode } = {}) {
    super(options.code ?? 'refused', message, options);
  }
}

/** What a refusal carries beside its line, on the wire (`field` and `details` only when known). */
export interface ProblemWire {
  code: ProblemCode;
  field?: string;
  details?: FieldProblem[];
  /** Why, by its code and values (the credential store's reason), beside the line. */
  because?: ProblemReason;
}

