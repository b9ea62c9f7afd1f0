/**
 * The lines `tock service` and `tock install-cli` print, from the CLI's catalogs (docs/cli.md
 * "Languages"): the reports say what was done in fields (`done`, `started`, `removed`, paths),
 * and these words are built from them. The reports' `message` is the English line, built here
 * from the English catalog, so `--json` keeps the field it always had and one text exists.
 */
import { formatList, type MessageValues } from '@tock/i18n';
import { Problem } from '@tock/protocol';
import { cliMessages, type CliKey, type CliMessages } from '../i18n/index.ts';

/** What `tock service` did or found, as its report's fields. */
export interface ServiceFacts {
  mechanism: 'systemd' | 'autostart' | 'launchagent' | 'windows-task' | null;
  file: string | null;
  /** `installed`, `updated` (installed again), `removed`, or `none` (nothing to remove; status). */
  done: 'installed' | 'updated' | 'removed' | 'none';
  /** After install: started `now`, already `running` (not started again), or at the `next-login`; null otherwise. */
  started: 'now' | 'running' | 'next-login' | null;
  /** The files uninstall removed (empty otherwise). */
  removed: string[];
  /** For status: systemd's `enabled, active`, as systemctl words it; null otherwise. */
  state?: string | null;
}

/** What `tock install-cli` did, as its report's fields. */
export interface LauncherFacts {
  path: string;
  /** The launcher's directory, and whether it is on the PATH. */
  dir: string;
  onPath: boolean;
  /** The Node the launcher runs. */
  node: string;
  platform: NodeJS.Platform;
  /** `installed`, `removed`, or `none` (nothing to remove). */
  done: 'installed' | 'removed' | 'none';
}

let english: CliMessages | undefined;

/** The English catalog: the reports' `message`. */
export function englishLines(): CliMessages {
  english ??= cliMessages('en');
  return english;
}

/** `systemd user unit`, `LaunchAgent`, … in the person's words. */
function mechanismWords(t: CliMessages, mechanism: NonNullable<ServiceFacts['mechanism']>): string {
  return t('service.mechanism', { mechanism });
}

/** The line for what install or uninstall did. */
export function serviceLine(t: CliMessages, facts: ServiceFacts): string {
  if (facts.done === 'removed') return t('service.removed', { files: formatList(t.locale, facts.removed) });
  if (facts.done === 'none' || facts.mechanism === null || facts.file === null) return t('service.nothingToRemove');
  const when = t(facts.started === 'now' ? 'service.startedNow' : facts.started === 'running' ? 'service.alreadyRunning' : 'service.nextLogin');
  return t(facts.done === 'updated' ? 'service.updated' : 'service.installed', { what: mechanismWords(t, facts.mechanism), file: facts.file, when });
}

/** What status found: the mechanism and file (with systemd's state), or that none is installed. */
export function serviceStatusLine(t: CliMessages, facts: ServiceFacts): string {
  if (facts.mechanism === null || facts.file === null) return t('service.notInstalled');
  const what = mechanismWords(t, facts.mechanism);
  return facts.state ? t('service.foundState', { what, file: facts.file, state: facts.state }) : t('service.found', { what, file: facts.file });
}

/** The line for what `tock install-cli` did. */
export function launcherLine(t: CliMessages, facts: LauncherFacts): string {
  if (facts.done === 'removed') return t('installCli.removed', { path: facts.path });
  if (facts.done === 'none') return t('installCli.nothing', { path: facts.path });
  const values = { path: facts.path, node: facts.node, dir: facts.dir };
  if (facts.onPath) return t('installCli.installedOnPath', values);
  return t(facts.platform === 'win32' ? 'installCli.installedAddWindows' : 'installCli.installedAddPosix', values);
}

/**
 * A `service_failed` refusal of `tock service` or `tock install-cli` with its catalog message:
 * `message` is the English, `said` what the CLI says in the person's language.
 */
export class ServiceFailure extends Problem {
  readonly said: { key: CliKey; values: MessageValues };

  constructor(key: CliKey, values: MessageValues) {
    super('service_failed', englishLines()(key, values));
    this.said = { key, values };
  }
}
