/**
 * Settings › Data (docs/ui.md "Data"; the formats: docs/data.md): import a file — checked first
 * with a dry run that says what it would do, then imported on confirmation, all or nothing —
 * export JSON or CSV of everything or a range of days, back up now, the list of backups, and how
 * to restore one (the app must be stopped for that, so the window shows the command).
 */
import { useState } from 'preact/hooks';
import { download, messageOf, pathOf, request, upload } from '../api.ts';
import { describedByError, FieldError } from '../components/FieldError.tsx';
import { Failure } from '../components/FormActions.tsx';
import { ScreenHead } from '../components/ScreenHead.tsx';
import { fileSize, mebibytes } from '../file-size.ts';
import { CODE, codeMark, WithCode } from '../components/WithCode.tsx';
import { type MessageKey, useT, type WindowMessages } from '../i18n/index.ts';
import { useLoaded } from '../load.ts';
import { blocksChanged, useAppState } from '../state.ts';
import { dayAndTime, timeZone } from '../time.ts';
import type { ImportCounts } from '../types.ts';

/** The most the window uploads (the app refuses more); `tock import` takes larger files. */
const MAX_UPLOAD_BYTES = 32 * 1024 * 1024;


const FORMATS: readonly (readonly [string, MessageKey])[] = [
  ['', 'data.detect'],
  ['tock', 'data.fmtTock'],
  ['toggl', 'data.fmtToggl'],
  ['timewarrior', 'data.fmtTimewarrior'],
  ['watson', 'data.fmtWatson'],
];

/** What an import did or would do, in the words `tock import` uses. */
function summary(t: WindowMessages, counts: ImportCounts, dryRun: boolean): string[] {
  const lines = [t(dryRun ? 'data.wouldImport' : 'data.imported', { blocks: counts.imported, activities: counts.activitiesCreated, skipped: counts.skipped })];
  if (counts.openSkipped > 0) lines.push(t(dryRun ? 'data.wouldLeaveOpen' : 'data.leftOpen', { count: counts.openSkipped }));
  if (counts.emptySkipped > 0) lines.push(t(dryRun ? 'data.wouldLeaveEmpty' : 'data.leftEmpty', { count: counts.emptySkipped }));
  return lines;
}

function ImportCard() {
  const t = useT();
  const [file, setFile] = useState<File | null>(null);
  const [format, setFormat] = useState('');
  const [tz, setTz] = useState('');
  const [checked, setChecked] = useState<ImportCounts | null>(null);
  const [done, setDone] = useState<string[] | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const reset = (): void => {
    setChecked(null);
    setDone(null);
    setFailure(null);
    setFileError(null);
  };
  const send = async (dryRun: boolean): Promise<ImportCounts | null> => {
    if (!file) {
      setFileError(t('data.chooseFile'));
      return null;
    }
    if (file.size > MAX_UPLOAD_BYTES) {
      setFileError(t('data.tooLarge', { size: mebibytes(t, file.size) }));
      return null;
    }
    setBusy(true);
    try {
      return await upload('POST /api/import', file, { query: { name: file.name, dryRun, ...(format ? { format } : {}), ...(tz.trim() ? { tz: tz.trim() } : {}) } });
    } catch (err) {
      setChecked(null);
      // The app's refusal names the file, the line or item, and the reason: it is about the file.
      setFileError(messageOf(err));
      return null;
    } finally {
      setBusy(false);
    }
  };
  const check = async (e: Event): Promise<void> => {
    e.preventDefault();
    reset();
    setChecked(await send(true));
  };
  const confirm = async (): Promise<void> => {
    const counts = await send(false);
    if (!counts) return;
    setChecked(null);
    setDone(summary(t, counts, false));
    blocksChanged();
  };

  return (
    <section class="card" aria-labelledby="import-heading">
      <h2 id="import-heading">{t('data.importHeading')}</h2>
      <p class="muted section-intro">{t('data.importIntro')}</p>
      <form class="data-form" onSubmit={(e) => void check(e)} noValidate>
        <div class="field wide">
          <label for="import-file">{t('data.file')}</label>
          <input
            id="import-file"
            type="file"
            accept=".json,.csv,.txt,application/json,text/csv"
            {...describedByError(fileError, 'import-file-error import-file-hint', 'import-file-hint')}
            onChange={(e) => {
              setFile((e.target as HTMLInputElement).files?.[0] ?? null);
              reset();
            }}
          />
          <p class="hint" id="import-file-hint">
            <WithCode text={t('data.fileHint', { command: CODE })} code="tock import FILE" />
          </p>
          <FieldError id="import-file-error" message={fileError} alert />
        </div>
        <div class="field">
          <label for="import-format">{t('data.format')}</label>
          <select
            id="import-format"
            value={format}
            onChange={(e) => {
              setFormat((e.target as HTMLSelectElement).value);
              reset();
            }}
          >
            {FORMATS.map(([value, label]) => (
              <option key={value} value={value}>
                {t(label)}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="import-tz">{t('data.tz')}</label>
          <input
            id="import-tz"
            type="text"
            autocomplete="off"
            placeholder={timeZone()}
            value={tz}
            aria-describedby="import-tz-hint"
            onInput={(e) => {
              setTz((e.target as HTMLInputElement).value);
              reset();
            }}
          />
          <p class="hint" id="import-tz-hint">
            {t('data.tzHint', { zone: timeZone() })}
          </p>
        </div>
        <div class="form-actions wide">
          <button type="submit" disabled={busy}>
            {t('data.check')}
          </button>
        </div>
      </form>
      {checked && (
        <div class="confirm" role="group" aria-labelledby="import-dry-run" data-testid="import-dry-run">
          <div id="import-dry-run">
            {summary(t, checked, true).map((line) => (
              <p key={line}>{line}</p>
            ))}
            <p class="muted">{t('data.nothingYet')}</p>
          </div>
          <div class="actions">
            <button type="button" class="primary" disabled={busy || checked.imported === 0} onClick={() => void confirm()}>
              {t('data.importBlocks', { count: checked.imported })}
            </button>
            <button type="button" class="ghost" onClick={reset}>
              {t('data.cancel')}
            </button>
          </div>
        </div>
      )}
      <div role="status" class="success" data-testid="import-done">
        {done?.map((line) => (
          <p key={line}>{line}</p>
        ))}
      </div>
      <Failure message={failure} />
    </section>
  );
}

function ExportCard() {
  const t = useT();
  const [format, setFormat] = useState<'json' | 'csv'>('json');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async (e: Event): Promise<void> => {
    e.preventDefault();
    setFailure(null);
    setBusy(true);
    try {
      await download(pathOf('GET /api/export', { query: { format, ...(from ? { from } : {}), ...(to ? { to } : {}) } }));
    } catch (err) {
      setFailure(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card" aria-labelledby="export-heading">
      <h2 id="export-heading">{t('data.exportHeading')}</h2>
      <p class="muted section-intro">{t('data.exportIntro')}</p>
      <form class="data-form" onSubmit={(e) => void save(e)} noValidate>
        <fieldset class="wide choice-row">
          <legend>{t('data.format')}</legend>
          <label class="check">
            <input type="radio" name="export-format" value="json" checked={format === 'json'} onChange={() => setFormat('json')} />
            {t('data.json')}
          </label>
          <label class="check">
            <input type="radio" name="export-format" value="csv" checked={format === 'csv'} onChange={() => setFormat('csv')} />
            {t('data.csv')}
          </label>
        </fieldset>
        <div class="field">
          <label for="export-from">{t('data.from')}</label>
          <input id="export-from" type="date" value={from} onInput={(e) => setFrom((e.target as HTMLInputElement).value)} />
        </div>
        <div class="field">
          <label for="export-to">{t('data.to')}</label>
          <input id="export-to" type="date" value={to} onInput={(e) => setTo((e.target as HTMLInputElement).value)} />
        </div>
        <div class="form-actions wide">
          <button type="submit" disabled={busy}>
            {t('data.download')}
          </button>
        </div>
      </form>
      <Failure message={failure} />
    </section>
  );
}

function BackupsCard() {
  const t = useT();
  const [version, setVersion] = useState(0);
  const { data, error } = useLoaded(() => request('GET /api/backups'), [version], null);
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const backUp = async (): Promise<void> => {
    setBusy(true);
    setDone(null);
    setFailure(null);
    try {
      const { path } = await request('POST /api/backups');
      setDone(t('data.backedUp', { path }));
      setVersion((n) => n + 1);
    } catch (err) {
      setFailure(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  const newest = data?.backups[0];
  return (
    <section class="card" aria-labelledby="backups-heading">
      <h2 id="backups-heading">{t('data.backupsHeading')}</h2>
      <p class="muted section-intro">
        {data?.dir ? <WithCode text={t('data.backupsIntro', { path: CODE })} code={data.dir} /> : t('data.backupsIntro', { path: t('data.backupsFolder') })}
      </p>
      <div class="inline-row">
        <button type="button" disabled={busy} onClick={() => void backUp()}>
          {t('data.backUp')}
        </button>
      </div>
      <p role="status" class="success" data-testid="backup-done">
        {done}
      </p>
      <Failure message={failure ?? error} />
      {data && data.backups.length === 0 && <p class="muted empty">{t('data.noBackups')}</p>}
      {data && data.backups.length > 0 && (
        <div class="table-wrap">
          <table class="requests" data-testid="backups">
            <thead>
              <tr>
                <th scope="col">{t('data.colFile')}</th>
                <th scope="col">{t('data.colMade')}</th>
                <th scope="col">{t('data.colSize')}</th>
                <th scope="col">{t('data.colKind')}</th>
              </tr>
            </thead>
            <tbody>
              {data.backups.map((b) => (
                <tr key={b.name}>
                  <td class="mono path" data-label={t('data.colFile')}>
                    {b.name}
                  </td>
                  <td data-label={t('data.colMade')}>{dayAndTime(Date.parse(b.made))}</td>
                  <td data-label={t('data.colSize')}>{fileSize(t, b.bytes)}</td>
                  <td data-label={t('data.colKind')}>{b.automatic ? t('data.daily') : t('data.yours')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3 class="subhead">{t('data.restoreHeading')}</h3>
      <p class="muted">
        <WithCode
          text={t('data.restoreText', { app: codeMark('app'), service: codeMark('service'), kept: codeMark('kept') })}
          codes={{ app: 'tock app', service: 'systemctl --user stop tock', kept: 'tock.db.before-restore-…' }}
        />
      </p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling code block must be reachable by keyboard (axe: scrollable-region-focusable) */}
      <pre class="code" tabIndex={0} role="group" aria-label={t('data.restoreCommand')}>
        <code data-testid="restore-command">{`tock restore ${newest ? shellQuote(newest.path) : 'FILE'}`}</code>
      </pre>
    </section>
  );
}

/** A path as one shell word. */
function shellQuote(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

export function Data() {
  const t = useT();
  const { snapshot } = useAppState();
  if (!snapshot) return null;
  return (
    <div class="screen">
      <ScreenHead title={t('screen.data')}>{t('data.intro')}</ScreenHead>
      <ImportCard />
      <ExportCard />
      <BackupsCard />
    </div>
  );
}
