/**
 * Capture's use cases (docs/desktop.md "Capture"), declared once for `tock capture` and `tock
 * timeline` (admin/capture-routes.ts) and the window's Settings › Capture and captured lane
 * (ui/capture-routes.ts), over the desktop's capture part: its status, one setting, a day's
 * timeline, forgetting a range of days, the GNOME Shell extension's install. Forgetting checks
 * that the range runs forward before anything is deleted, a `validation_failed` about `to`.
 */
import type { Capture } from '@tock/desktop';
import { ruleProblem, validationProblem } from '@tock/protocol';

/** Capture's use cases over the desktop's capture part. */
export function captureUseCases(capture: Capture) {
  return {
    status: () => capture.status(),
    /** One setting: a refused value is core's `validation_failed` naming it, and nothing changes. */
    set: ({ key, value }: { key: string; value?: unknown }) => capture.set(key, value),
    /** A day's timeline; absent: today. */
    timeline: ({ date }: { date?: string | null }) => capture.timeline(date ?? undefined),
    /** Forgets the spans and heartbeats of the days `from` to `to`, both included. */
    forget: ({ from, to }: { from: string; to: string }) => {
      if (to < from) throw validationProblem([ruleProblem('to', { rule: 'dayBefore', values: { to, from } })]);
      return capture.forget(from, to);
    },
    installGnomeExtension: () => capture.installGnomeExtension(),
  };
}

/** Capture's table of use cases. */
export type CaptureUseCases = ReturnType<typeof captureUseCases>;
