/**
 * The admin commands of docs/cli.md "The contract". They act on the app running under the same `TOCK_HOME`
 * through its admin socket; when it is not running they say so and how to start it.
 */
import type { AdminResult, LicenseInfo } from '@tock/admin';
import type { Status } from '@tock/protocol';
import { MIN_LISTENER_PORT, parsePort } from '@tock/protocol';
import { formatDate } from '@tock/i18n';
import { englishForms } from './client-format.ts';
import { messagesOf, print, refusal } from './io.ts';
import type { Command } from './command.ts';
import type { CliMessages } from './i18n/index.ts';
import { admin } from './admin-call.ts';
import { secretArgument } from './secret-argument.ts';
import { flags } from './flags.ts';
import { listenerLine } from './app-command.ts';
import { clockFor } from './clock-setting.ts';
import { formatClock } from './format-time.ts';
import { terminalText } from './terminal-text.ts';

/** `--port N`: a whole number from 1024 to 65535 (the app checks it again). */
function portFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = parsePort(value, MIN_LISTENER_PORT);
  if (port === undefined) throw refusal('admin.portValue', { value });
  return port;
}

function formatLicense(t: CliMessages, info: LicenseInfo): string {
  const day = (iso: string): string => (englishForms(t) ? iso.slice(0, 10) : formatDate(t.locale, Date.parse(iso), 'UTC', 'medium'));
  switch (info.state) {
    case 'trial':
      return t('license.trial', { days: info.daysLeft ?? 0, ends: day(info.trialEnds) });
    case 'licensed':
      return info.expires ? t('license.licensedUntil', { licensee: info.licensee ?? '', until: day(info.expires) }) : t('license.licensed', { licensee: info.licensee ?? '' });
    case 'locked':
      return info.licensee ? t('license.lockedLicense', { licensee: info.licensee, expired: info.expires ? day(info.expires) : '' }) : t('license.lockedTrial', { ended: day(info.trialEnds) });
  }
}

function formatBreak(t: CliMessages, status: Status, resumed: boolean): string {
  const name = status.currentActivity?.activityName;
  if (name === undefined) return t(resumed ? 'break.resumedUnnamed' : 'break.onBreakUnnamed');
  return t(resumed ? 'break.resumed' : 'break.onBreak', { name });
}

/**
 * Why the token went to a file nobody chose, in the person's language from its fact (the file);
 * English, or an app that sends no path, keeps the app's line.
 */
export function storeNotice(t: CliMessages, status: Pick<AdminResult<'GET /listener'>, 'notice' | 'noticePath'>): string {
  if (t.locale === 'en' || status.noticePath === undefined) return status.notice ?? '';
  return t('listener.storeNotice', { path: status.noticePath });
}

const listener: Command = {
  usage: 'tock listener on [--port N] | off | status [--json]',
  async run(args, io) {
    const { values, positionals } = flags(args, { port: { type: 'string' } }, 1);
    const action = positionals[0];
    let status: AdminResult<'GET /listener'>;
    if (action === 'on') status = await admin(io, 'POST /listener/on', { port: portFlag(values.port as string | undefined) });
    else if (values.port !== undefined) throw refusal('listener.portWithOn');
    else if (action === 'off') status = await admin(io, 'POST /listener/off');
    else if (action === 'status' || action === undefined) status = await admin(io, 'GET /listener');
    else throw refusal('listener.unknownAction', { action });
    print(io, values.json === true, status, () => listenerLine(messagesOf(io), status));
    // No Secret Service: the token went to the 0600 file; said on the turning on (docs/cli.md, `tock listener on`).
    if (action === 'on' && status.notice && values.json !== true) io.err(`note: ${storeNotice(messagesOf(io), status)}`);
    // A listener moved to another port leaves the plugins' ~/.wakatime.cfg on the old one: say so now.
    if (action === 'on' && values.port !== undefined && values.json !== true) {
      const editors = await admin(io, 'GET /editors');
      const { configWarning } = await import('./editors-command.ts');
      const warning = editors.enabled ? configWarning(messagesOf(io), io.env, editors.apiUrl) : null;
      if (warning !== null) io.err(`warning: ${terminalText(warning)}`);
    }
    return 0;
  },
};

const token: Command = {
  usage: 'tock token [--rotate] [--json]',
  async run(args, io) {
    const { values } = flags(args, { rotate: { type: 'boolean' } });
    const result = await admin(io, values.rotate ? 'POST /token/rotate' : 'GET /token');
    print(io, values.json === true, result, () => result.token);
    return 0;
  },
};

const requests: Command = {
  usage: 'tock requests [--json]',
  async run(args, io) {
    const { values } = flags(args);
    const list = await admin(io, 'GET /requests');
    // Times as every other CLI line writes them (`09:14`, another day `2026-11-21 17:02`), never raw ISO.
    const clock = await clockFor(io, values.json === true);
    print(io, values.json === true, list, () =>
      list.length === 0
        ? messagesOf(io)('requests.none')
        : list.map((r) => `${formatClock(r.time, io.now(), clock)}  ${r.status}  ${r.method.padEnd(6)} ${r.path}`).join('\n'),
    );
    return 0;
  },
};

const license: Command = {
  usage: 'tock license [--json] | tock license activate KEY',
  async run(args, io) {
    const { values, positionals } = flags(args, {}, 2);
    let info: LicenseInfo;
    if (positionals[0] === 'activate') {
      // `-`: the key from standard input, never seen in the process's arguments.
      const key = positionals[1] === undefined ? '' : await secretArgument(positionals[1]);
      if (!key) throw refusal('license.giveKey');
      info = await admin(io, 'POST /license/activate', { key });
    } else if (positionals.length === 0) {
      info = await admin(io, 'GET /license');
    } else {
      throw refusal('license.unknownAction', { action: positionals[0] as string });
    }
    print(io, values.json === true, info, () => formatLicense(messagesOf(io), info));
    return 0;
  },
};

/** `tock break` and `tock resume`: one admin call, the status printed. */
function breakCommand(usage: string, route: 'POST /break' | 'POST /resume'): Command {
  return {
    usage,
    async run(args, io) {
      const { values } = flags(args);
      const status = await admin(io, route);
      print(io, values.json === true, status, () => formatBreak(messagesOf(io), status, route === 'POST /resume'));
      return 0;
    },
  };
}

const pause = breakCommand('tock break [--json]', 'POST /break');
const resume = breakCommand('tock resume [--json]', 'POST /resume');

/** `tock export`, loaded on use (export-command.ts builds on this module's helpers). */
const exportCommand: Command = {
  usage: 'tock export [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--format json|csv] [--capture] [--output FILE] [--json]',
  run: async (args, io) => (await import('./export-command.ts')).runExport(args, io),
};

/** `tock report`, loaded on use. */
const report: Command = {
  usage: 'tock report [today|yesterday|week|last-week|month|last-month|year|last-year] [--from YYYY-MM-DD --to YYYY-MM-DD] [--by activity|day|client|tag] [--billable true|false] [--json|--csv [--matrix]]',
  run: async (args, io) => (await import('./report-command.ts')).runReport(args, io),
};

/** `tock import`, loaded on use. */
const importCommand: Command = {
  usage: 'tock import FILE [--format tock|toggl|timewarrior|watson] [--tz ZONE] [--dry-run] [--json]',
  run: async (args, io) => (await import('./import-command.ts')).runImport(args, io),
};

/** The admin commands, by name. */
export const adminCommands: Record<string, Command> = { listener, token, requests, license, break: pause, resume, export: exportCommand, report, import: importCommand };
