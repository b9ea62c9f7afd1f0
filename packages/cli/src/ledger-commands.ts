/**
 * The ledger's commands (docs/cli.md "The ledger", "Activities"): `tock clients`, `tock activity`, `tock tag` /
 * `tock untag` and `tock settings`. Admin commands: the running app checks every value (a rate
 * `abc`, a currency `EURO`, a budget `-1`, a tag with a control character) and refuses it with
 * one line that names the field, changing nothing; these only ask it and print the answer.
 */
import type { AdminInput } from '@tock/admin';
import type { ActivityLedger, Client } from '@tock/core';
import { LEDGER_SETTING_KEYS } from '@tock/core/shapes';
import { formatList } from '@tock/i18n';
import { isProblem } from '@tock/protocol';
import { admin } from './admin-call.ts';
import { flags } from './flags.ts';
import type { Command } from './command.ts';
import type { CliMessages } from './i18n/index.ts';
import { messagesOf, print, refusal, type Io } from './io.ts';
import { terminalText } from './terminal-text.ts';
import { FieldRefusal } from './rule-words.ts';
import { decimalFor, englishForms, moneyFor } from './client-format.ts';
import { intlLocale } from '@tock/i18n';

/** One client as a line: name, rate and currency, its invoice details, the address's first line. */
export function formatClient(t: CliMessages, c: Client): string {
  const rate = c.rate === null ? t('client.noRate') : t('client.rate', { rate: moneyFor(t, String(c.rate), c.currency) });
  const details = [
    c.reverseCharge === true ? t('client.reverseCharge') : c.taxRate !== null && c.taxRate !== undefined ? t('client.tax', { rate: c.taxRate }) : '',
    c.taxID ? t('client.vatID', { id: c.taxID }) : '',
    c.language ? t('client.language', { language: languageName(t, c.language) }) : '',
  ].filter((d) => d !== '');
  const address = c.address === null || c.address === '' ? '' : `  ${c.address.split('\n')[0]}`;
  // A currency without a rate still says which one the client pays in.
  const fields = [rate, ...(c.rate === null && c.currency !== null ? [c.currency] : []), ...details].join(t.locale === 'ja' ? '、' : ', ');
  return terminalText(`${t('client.line', { name: c.name, details: fields })}${address}`);
}

/** A client's invoice language (a BCP 47 tag) by its name in the person's language (`Deutsch`, `ドイツ語`); English keeps the tag. */
function languageName(t: CliMessages, tag: string): string {
  if (englishForms(t)) return tag;
  try {
    return new Intl.DisplayNames([intlLocale(t.locale)], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/** An activity's ledger fields as a line. */
export function formatActivityLedger(t: CliMessages, a: ActivityLedger): string {
  const parts = [
    a.clientName === null ? t('ledger.noClient') : t('ledger.client', { name: a.clientName }),
    a.rate === null ? t('ledger.noRate') : t('ledger.rate', { rate: decimalFor(t, String(a.rate)) }),
    t(a.billable ? 'ledger.billable' : 'ledger.notBillable'),
    a.budgetHours === null ? t('ledger.noBudget') : t('ledger.budget', { hours: decimalFor(t, String(a.budgetHours)) }),
  ];
  return terminalText(t('ledger.line', { name: a.activityName, fields: parts.join(t.locale === 'ja' ? '、' : ', ') }));
}

/** The value of a flag that clears with an empty text (`--rate ""`), or absent. */
function clearable(value: string | boolean | undefined): string | null | undefined {
  if (value === undefined || typeof value === 'boolean') return undefined;
  return value === '' ? null : value;
}

/**
 * Asks the app, and says its refusal of a field given by a flag as that flag and its value
 * (`--budget -1: must be a number of hours above 0`): `given` maps an input field to the flag
 * and the value typed. Decided by the problem's field and details, never by its message
 * (docs/architecture.md "One problem type"); any other failure comes back as it is.
 */
async function sayingFlags<T>(ask: () => Promise<T>, given: Record<string, readonly [flag: string, value: string | null | undefined]>): Promise<T> {
  try {
    return await ask();
  } catch (error) {
    if (!isProblem(error) || error.field === undefined || !Object.hasOwn(given, error.field)) throw error;
    const rule = error.details?.find((detail) => detail.field === error.field);
    const [flag, value] = given[error.field] as readonly [string, string | null | undefined];
    if (rule === undefined) throw error;
    throw new FieldRefusal(`${flag}${typeof value === 'string' ? ` ${terminalText(value)}` : ''}`, rule);
  }
}

/**
 * A reverse-charge client without a VAT ID: its invoices say the recipient owes the VAT but cannot
 * name the recipient's VAT ID, which such an invoice must carry. One line on stderr, with the command.
 */
function noteMissingTaxID(io: Io, client: Client): void {
  if (client.reverseCharge !== true || (client.taxID ?? '') !== '') return;
  io.err(`note: ${terminalText(messagesOf(io)('client.reverseChargeNoTaxID', { name: client.name }))}`);
}

const CLIENT_FIELD_FLAGS = '[--rate R] [--currency C] [--address TEXT] [--tax-id ID] [--tax-rate PERCENT | --reverse-charge | --no-reverse-charge] [--language en|de|fr|es|ja]';
const CLIENTS_USAGE = `tock clients list | add NAME ${CLIENT_FIELD_FLAGS} | edit CLIENT [--name N] ${CLIENT_FIELD_FLAGS} | remove CLIENT`;
const CLIENTS_NOTE = { key: 'usage.note.clients' } as const;

const clients: Command = {
  usage: `${CLIENTS_USAGE} [--json]`,
  usageNote: CLIENTS_NOTE,
  async run(args, io) {
    const fieldFlags = {
      rate: { type: 'string' },
      currency: { type: 'string' },
      address: { type: 'string' },
      name: { type: 'string' },
      'tax-id': { type: 'string' },
      'tax-rate': { type: 'string' },
      'reverse-charge': { type: 'boolean' },
      'no-reverse-charge': { type: 'boolean' },
      language: { type: 'string' },
    } as const;
    const { values, positionals } = flags(args, fieldFlags, 2);
    const [action = 'list', target] = positionals;
    const json = values.json === true;
    if (values['reverse-charge'] === true && (values['no-reverse-charge'] === true || values['tax-rate'] !== undefined)) {
      throw refusal('client.reverseChargeAlone');
    }
    const reverseCharge = values['reverse-charge'] === true ? true : values['no-reverse-charge'] === true ? false : undefined;
    const fields = {
      rate: clearable(values.rate),
      currency: clearable(values.currency),
      address: clearable(values.address),
      taxID: clearable(values['tax-id']),
      taxRate: clearable(values['tax-rate']),
      language: clearable(values.language),
      reverseCharge,
    };
    const given = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    const typed = {
      rate: ['--rate', fields.rate],
      currency: ['--currency', fields.currency],
      address: ['--address', undefined],
      taxID: ['--tax-id', fields.taxID],
      taxRate: ['--tax-rate', fields.taxRate],
      language: ['--language', fields.language],
    } as const;
    if (action === 'list') {
      if (target !== undefined || Object.keys(given).length > 0 || values.name !== undefined) throw refusal('usage.withNote', { syntax: CLIENTS_USAGE, note: messagesOf(io)(CLIENTS_NOTE.key) });
      const list = await admin(io, 'GET /clients');
      const t = messagesOf(io);
      print(io, json, list, () => (list.length === 0 ? t('client.none') : list.map((c) => formatClient(t, c)).join('\n')));
      return 0;
    }
    if (target === undefined || target.trim() === '') throw refusal('client.needsName', { action, syntax: CLIENTS_USAGE });
    if (action === 'add') {
      if (values.name !== undefined) throw refusal('client.nameWithEdit');
      const client = await sayingFlags(() => admin(io, 'POST /clients/add', { name: target, ...given }), typed);
      print(io, json, client, () => messagesOf(io)('client.added', { client: formatClient(messagesOf(io), client) }));
      if (!json) noteMissingTaxID(io, client);
    } else if (action === 'edit') {
      const name = values.name as string | undefined;
      if (name === undefined && Object.keys(given).length === 0) {
        throw refusal('client.editNothing');
      }
      const client = await sayingFlags(() => admin(io, 'POST /clients/edit', { client: target, ...(name === undefined ? {} : { name }), ...given }), typed);
      print(io, json, client, () => messagesOf(io)('client.changed', { client: formatClient(messagesOf(io), client) }));
      if (!json) noteMissingTaxID(io, client);
    } else if (action === 'remove') {
      if (values.name !== undefined || Object.keys(given).length > 0) throw refusal('client.removeOnly');
      const client = await admin(io, 'POST /clients/remove', { client: target });
      print(io, json, client, () => terminalText(messagesOf(io)('client.removed', { name: client.name })));
    } else {
      throw refusal('client.unknownAction', { action });
    }
    return 0;
  },
};

const ACTIVITY_USAGE =
  'tock activity show NAME | set NAME [--client C] [--rate R] [--billable|--not-billable] [--budget HOURS] | rename OLD NEW | archive NAME | unarchive NAME | merge FROM INTO | delete NAME';
const ACTIVITY_NOTE = { key: 'usage.note.activity' } as const;

/** How many names each `tock activity` action takes after it. */
const ACTIVITY_NAMES: Record<string, number> = { show: 1, set: 1, rename: 2, archive: 1, unarchive: 1, merge: 2, delete: 1 };

/** `tock activity rename|archive|unarchive|merge|delete` (docs/cli.md "Activities"): one admin call each, one line back. */
async function activityLifecycle(action: string, names: string[], io: Parameters<Command['run']>[1], json: boolean): Promise<void> {
  const [first = '', second = ''] = names;
  if (action === 'rename') {
    const renamed = await admin(io, 'POST /activity/rename', { activity: first, name: second });
    print(io, json, renamed, () => terminalText(messagesOf(io)('activity.renamed', { from: first.trim(), to: renamed.activityName })));
  } else if (action === 'archive' || action === 'unarchive') {
    const done = await admin(io, 'POST /activity/archive', { activity: first, archived: action === 'archive' });
    const line = messagesOf(io)(action === 'archive' ? 'activity.archived' : 'activity.unarchived', { name: done.activityName });
    print(io, json, done, () => terminalText(line));
  } else if (action === 'merge') {
    const merged = await admin(io, 'POST /activity/merge', { from: first, into: second });
    const moved = merged.sessions + merged.entries;
    print(io, json, merged, () => terminalText(messagesOf(io)('activity.merged', { from: merged.from.activityName, into: merged.into.activityName, moved })));
  } else {
    const deleted = await admin(io, 'POST /activity/delete', { activity: first });
    print(io, json, deleted, () => terminalText(messagesOf(io)('activity.deleted', { name: deleted.activityName })));
  }
}

const activity: Command = {
  usage: `${ACTIVITY_USAGE} [--json]`,
  usageNote: ACTIVITY_NOTE,
  async run(args, io) {
    const { values, positionals } = flags(
      args,
      { client: { type: 'string' }, rate: { type: 'string' }, budget: { type: 'string' }, billable: { type: 'boolean' }, 'not-billable': { type: 'boolean' } },
      3,
    );
    const [action = '', ...names] = positionals;
    const json = values.json === true;
    const wanted = ACTIVITY_NAMES[action];
    if (wanted === undefined || names.length !== wanted || names.some((n) => n.trim() === '')) throw refusal('usage.withNote', { syntax: ACTIVITY_USAGE, note: messagesOf(io)(ACTIVITY_NOTE.key) });
    const name = names[0] as string;
    if (action !== 'set' && Object.keys(values).some((k) => k !== 'json')) {
      throw refusal('activity.onlyNames', { action, count: wanted });
    }
    if (action !== 'show' && action !== 'set') {
      await activityLifecycle(action, names, io, json);
      return 0;
    }
    if (action === 'show') {
      const ledger = await admin(io, 'POST /activity/ledger', { activity: name });
      print(io, json, ledger, () => formatActivityLedger(messagesOf(io), ledger));
      return 0;
    }
    if (values.billable === true && values['not-billable'] === true) throw refusal('error.billableBoth');
    const input: AdminInput<'POST /activity/set'> = { activity: name };
    const client = clearable(values.client);
    if (client !== undefined) input.client = client;
    const rate = clearable(values.rate);
    if (rate !== undefined) input.rate = rate;
    const budget = clearable(values.budget);
    if (budget !== undefined) input.budgetHours = budget;
    if (values.billable === true) input.billable = true;
    if (values['not-billable'] === true) input.billable = false;
    if (Object.keys(input).length === 1) throw refusal('activity.setNothing');
    const ledger = await sayingFlags(() => admin(io, 'POST /activity/set', input), { rate: ['--rate', rate], budgetHours: ['--budget', budget] });
    print(io, json, ledger, () => formatActivityLedger(messagesOf(io), ledger));
    // A client given to an activity that bills nothing (activities are not billable until said):
    // say so once, with the command that bills it, rather than let its report show no money.
    if (!json && typeof input.client === 'string' && !ledger.billable && input.billable !== false && ledger.clientName !== null) {
      io.err(`note: ${terminalText(messagesOf(io)('ledger.notBilled', { name: ledger.activityName, client: ledger.clientName }))}`);
    }
    return 0;
  },
};

/** `tock tag` / `tock untag`: tags on one block, by its ID (`tock log --json` prints it) or `last` (the most recent block). */
function tagCommand(verb: 'tag' | 'untag'): Command {
  const usage = `tock ${verb} ID|last TAG… [--json]`;
  return {
    usage,
    usageNote: { key: 'usage.note.tag' },
    async run(args, io) {
      const { values, positionals } = flags(args, {}, Number.POSITIVE_INFINITY);
      const [id, ...tags] = positionals;
      if (id === undefined || tags.length === 0) throw refusal('usage.line', { syntax: usage });
      const block = await admin(io, verb === 'tag' ? 'POST /blocks/tag' : 'POST /blocks/untag', { id, tags });
      const t = messagesOf(io);
      const tagList = formatList(t.locale, block.tags, 'unit');
      print(io, values.json === true, block, () => terminalText(t('tag.line', { kind: block.kind, id: block.id, count: block.tags.length, tags: tagList })));
      return 0;
    },
  };
}

const SETTINGS_USAGE = 'tock settings get KEY | set KEY JSON';
/** The settings `tock settings` reads and writes (docs/cli.md), named in its usage's note. */
// The ledger's keys, and the calendars' calendarMe (the app answers it beside them).
const SETTINGS_NOTE = { key: 'usage.note.settings', values: { keys: [...LEDGER_SETTING_KEYS, 'calendarMe'].join(', ') } } as const;

/**
 * The value as JSON text: JSON as typed, or a bare word the shell took the quotes off
 * (`set language de`, `set dayStartsAt 04:00`) as the string it meant, so that the app checks
 * what it is rather than refusing it as not JSON.
 */
function settingText(value: string): string {
  try {
    JSON.parse(value);
    return value;
  } catch {
    return /^[\p{L}\p{N}_.:@+-]+$/u.test(value) ? JSON.stringify(value) : value;
  }
}

const settings: Command = {
  usage: `${SETTINGS_USAGE} [--json]`,
  usageNote: SETTINGS_NOTE,
  async run(args, io) {
    const { values, positionals } = flags(args, {}, 3);
    const [action, key, value] = positionals;
    if (key === undefined || (action === 'get' && value !== undefined) || (action === 'set' && value === undefined) || (action !== 'get' && action !== 'set')) {
      throw refusal('usage.withNote', { syntax: SETTINGS_USAGE, note: messagesOf(io)(SETTINGS_NOTE.key, SETTINGS_NOTE.values) });
    }
    const result = action === 'get' ? await admin(io, 'POST /settings/get', { key }) : await admin(io, 'POST /settings/set', { key, value: settingText(value ?? '') });
    // The value is JSON either way: what `set` takes is what `get` prints.
    print(io, values.json === true, result, () => terminalText(JSON.stringify(result)));
    return 0;
  },
};

/** The ledger's commands, by name. */
export const ledgerCommands: Record<string, Command> = { clients, activity, tag: tagCommand('tag'), untag: tagCommand('untag'), settings };
