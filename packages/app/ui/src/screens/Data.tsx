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
import { useLoaded } from '../load.ts';
import { blocksChanged, useAppState } from '../state.ts';
import { dayAndTime, timeZone } from '../time.ts';
import type { ImportCounts } from '../types.ts';

/** The most the window uploads (the app refuses more); `tock import` takes larger files. */
const MAX_UPLOAD_BYTES = 32 * 1024 * 1024;


const FORMATS = [
  ['', 'Detect from the file'],
  ['tock', 'Tock export (JSON)'],
  ['toggl', 'Toggl Track detailed report (CSV)'],
  ['timewarrior', 'Timewarrior export (JSON)'],
  ['watson', 'Watson frames'],
] as const;

const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;

/** What an import did or would do, in the words `tock import` uses. */
function summary(counts: ImportCounts, dryRun: boolean): string[] {
  const [imported, skipped, leftOut] = dryRun ? ['Would import', 'would skip', 'Would leave out'] : ['Imported', 'skipped', 'Left out'];
  const lines = [
    `${imported} ${plural(counts.imported, 'block', 'blocks')} (${plural(counts.activitiesCreated, 'new activity', 'new activities')}), ${skipped} ${counts.skipped} already present.`,
  ];
  if (counts.openSkipped > 0) lines.push(`${leftOut} ${plural(counts.openSkipped, 'open block', 'open blocks')} without an end (running when the file was written).`);
  if (counts.emptySkipped > 0) lines.push(`${leftOut} ${plural(counts.emptySkipped, 'empty block', 'empty blocks')} that end when they start.`);
  return lines;
}

function ImportCard() {
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
      setFileError('Choose the file to import.');
      return null;
    }
    if (file.size > MAX_UPLOAD_BYTES) {
      setFileError(`The file is ${(file.size / (1024 * 1024)).toFixed(1)} MiB; the window imports files of up to 32 MiB. Use tock import FILE for larger ones.`);
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
    setDone(summary(counts, false));
    blocksChanged();
  };

  return (
    <section class="card" aria-labelledby="import-heading">
      <h2 id="import-heading">Import</h2>
      <p class="muted section-intro">
        Bring in time from a Tock export, Toggl Track, Timewarrior or Watson. Tock first checks the whole file and says what it would
        import; nothing is written until you confirm. One bad row imports nothing. Blocks already here are skipped, so importing a
        file twice adds nothing.
      </p>
      <form class="data-form" onSubmit={(e) => void check(e)} noValidate>
        <div class="field wide">
          <label for="import-file">File to import</label>
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
            Up to 32 MiB here; <code>tock import FILE</code> takes larger files.
          </p>
          <FieldError id="import-file-error" message={fileError} alert />
        </div>
        <div class="field">
          <label for="import-format">Format</label>
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
                {label}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="import-tz">Time zone of a Toggl file</label>
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
            Toggl writes local times; empty means Tock’s zone ({timeZone()}).
          </p>
        </div>
        <div class="form-actions wide">
          <button type="submit" disabled={busy}>
            Check the file
          </button>
        </div>
      </form>
      {checked && (
        <div class="confirm" role="group" aria-labelledby="import-dry-run" data-testid="import-dry-run">
          <div id="import-dry-run">
            {summary(checked, true).map((line) => (
              <p key={line}>{line}</p>
            ))}
            <p class="muted">Nothing was written yet.</p>
          </div>
          <div class="actions">
            <button type="button" class="primary" disabled={busy || checked.imported === 0} onClick={() => void confirm()}>
              Import {plural(checked.imported, 'block', 'blocks')}
            </button>
            <button type="button" class="ghost" onClick={reset}>
              Cancel
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
      <h2 id="export-heading">Export</h2>
      <p class="muted section-intro">
        All your time as a file: JSON that Tock imports back whole, or CSV for a spreadsheet. Leave the days empty for everything.
      </p>
      <form class="data-form" onSubmit={(e) => void save(e)} noValidate>
        <fieldset class="wide choice-row">
          <legend>Format</legend>
          <label class="check">
            <input type="radio" name="export-format" value="json" checked={format === 'json'} onChange={() => setFormat('json')} />
            JSON
          </label>
          <label class="check">
            <input type="radio" name="export-format" value="csv" checked={format === 'csv'} onChange={() => setFormat('csv')} />
            CSV
          </label>
        </fieldset>
        <div class="field">
          <label for="export-from">From (day, optional)</label>
          <input id="export-from" type="date" value={from} onInput={(e) => setFrom((e.target as HTMLInputElement).value)} />
        </div>
        <div class="field">
          <label for="export-to">To (day, optional)</label>
          <input id="export-to" type="date" value={to} onInput={(e) => setTo((e.target as HTMLInputElement).value)} />
        </div>
        <div class="form-actions wide">
          <button type="submit" disabled={busy}>
            Download export
          </button>
        </div>
      </form>
      <Failure message={failure} />
    </section>
  );
}

function size(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

function BackupsCard() {
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
      setDone(`Backed up to ${path}`);
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
      <h2 id="backups-heading">Backups</h2>
      <p class="muted section-intro">
        Tock keeps a backup of each day (the last 7) in <code>{data?.dir ?? 'the backups folder'}</code>. Make one of your own before a
        big change; those are never deleted.
      </p>
      <div class="inline-row">
        <button type="button" disabled={busy} onClick={() => void backUp()}>
          Back up now
        </button>
      </div>
      <p role="status" class="success" data-testid="backup-done">
        {done}
      </p>
      <Failure message={failure ?? error} />
      {data && data.backups.length === 0 && <p class="muted empty">No backups yet.</p>}
      {data && data.backups.length > 0 && (
        <div class="table-wrap">
          <table class="requests" data-testid="backups">
            <thead>
              <tr>
                <th scope="col">File</th>
                <th scope="col">Made</th>
                <th scope="col">Size</th>
                <th scope="col">Kind</th>
              </tr>
            </thead>
            <tbody>
              {data.backups.map((b) => (
                <tr key={b.name}>
                  <td class="mono path">{b.name}</td>
                  <td>{dayAndTime(Date.parse(b.made))}</td>
                  <td>{size(b.bytes)}</td>
                  <td>{b.automatic ? 'daily' : 'yours'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3 class="subhead">Restoring a backup</h3>
      <p class="muted">
        Restoring replaces everything Tock holds with the backup, so Tock must be stopped first: quit Tock (Ctrl+C where{' '}
        <code>tock app</code> runs, or <code>systemctl --user stop tock</code> for the service), then run the command below and start
        Tock again. The store you had is kept beside it as <code>tock.db.before-restore-…</code>; with sync on, sync is turned off and
        this device syncs again as a new one.
      </p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling code block must be reachable by keyboard (axe: scrollable-region-focusable) */}
      <pre class="code" tabIndex={0} role="group" aria-label="Restore command">
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
  const { snapshot } = useAppState();
  if (!snapshot) return null;
  return (
    <div class="screen">
      <ScreenHead title="Data">Your time, in and out: import from other trackers, export, and back up.</ScreenHead>
      <ImportCard />
      <ExportCard />
      <BackupsCard />
    </div>
  );
}
