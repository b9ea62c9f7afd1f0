/**
 * The reason inside another device's refused line as the status sends it (docs/i18n.md "What
 * the app sends as codes"): core's `OpReason` with every text the line sent made printable, so
 * neither a terminal nor the window gets the folder's control characters.
 */

import type { OpReason } from '@tock/core/sync';
import { printable } from './device-file.ts';
import type { SyncLineReason, SyncLineRule } from './status.ts';

/** A line's reason with every text the line sent shown as {@link printable} (the terminal and the window never get its control characters). */
export function printableReason(reason: OpReason | SyncLineReason): SyncLineReason {
  const line: SyncLineReason = { code: reason.code, values: printableValues(reason.values) };
  if (reason.rule !== undefined) line.rule = printableRule(reason.rule);
  return line;
}

function printableRule(rule: SyncLineRule): SyncLineRule {
  return { rule: rule.rule, ...(rule.values ? { values: printableValues(rule.values) } : {}), ...(rule.item ? { item: printableRule(rule.item) } : {}) };
}

function printableValues(values: Readonly<Record<string, string | number>>): Record<string, string | number> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'string' ? printable(v) : v]));
}
