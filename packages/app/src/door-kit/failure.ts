/**
 * The doors' one failure mapper (docs/architecture.md "One problem type"): a `Problem` is a
 * refusal with its code, field and details and the status of its code; an error whose class
 * names itself (`override name = …`, such as a desktop source's) is a refusal with the code
 * `refused`; anything else is a bug — the door logs it and answers 500 without internals.
 * Never by reading a message's text. Each door writes the failure in its own envelope.
 */
import { isProblem, PROBLEM_STATUS, type FieldProblem, type ProblemCode, type ProblemReason } from '@tock/protocol';

/** A failure as a door answers it. */
export interface Failure {
  /** The status of the problem's code; 500 for a bug. */
  status: number;
  /** The one line the person reads. */
  message: string;
  code: ProblemCode;
  field?: string;
  details?: FieldProblem[];
  /** Why, by its code and values, beside the English line (docs/i18n.md). */
  because?: ProblemReason;
  /** A bug (not a refusal): log it, and answer without its message. */
  unexpected: boolean;
}

/** What `error` is as an answer (see the module comment). */
export function failureOf(error: unknown): Failure {
  if (isProblem(error)) {
    const failure: Failure = { status: error.status, message: error.message, code: error.code, unexpected: false };
    if (error.field !== undefined) failure.field = error.field;
    if (error.details !== undefined) failure.details = error.details;
    if (error.because !== undefined) failure.because = error.because;
    return failure;
  }
  if (error instanceof Error && Object.hasOwn(error, 'name')) return { status: PROBLEM_STATUS.refused, message: error.message, code: 'refused', unexpected: false };
  return { status: 500, message: error instanceof Error ? error.message : String(error), code: 'internal_error', unexpected: true };
}
