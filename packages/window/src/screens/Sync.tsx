/**
 * Settings › Sync (docs/ui.md "Sync"; how sync works: docs/sync.md): the folder this device
 * syncs through, its name and the folder's key when another device made it — turned on with a
 * form, off with a button — the folder key shown on request to carry to another device, and every other
 * device seen in the folder with its last change, how many of its changes are applied here,
 * and any problem with its files. The app's refusals are shown next to their field, with the
 * window's words for the step they name as a `tock sync` command.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, request, messageOf, syncProblemText } from '../api.ts';
import { describedByError, FieldError, fieldErrorsOf } from '../components/FieldError.tsx';
import { Failure } from '../components/FormActions.tsx';
import { ScreenHead } from '../components/ScreenHead.tsx';
import { deviceReasonText, isDeviceReason, withLineWords } from '../problem-words.ts';
import { CODE, WithCode } from '../components/WithCode.tsx';
import { useT, type WindowMessages } from '../i18n/index.ts';
import { sentence } from '../sentence.ts';
import { useAppState } from '../state.ts';
import { dayAndTime } from '../time.ts';
import type { SyncStatus } from '../types.ts';

function when(t: WindowMessages, iso: string | null): string {
  if (iso === null) return t('sync.never');
  return dayAndTime(Date.parse(iso));
}

/**
 * The app's sync refusals and folder problems are shared with `tock sync enable`, whose
 * words they end with; in the window the same step is this screen's button.
 */
const CLI_STEPS: readonly [string, string][] = [
  ['run tock sync enable again', 'press Turn sync on again'],
  ['run tock sync enable with another folder', 'turn sync off, then on with another folder'],
  ['copy it again from `tock sync key` on a device that syncs there', 'copy it again from Show the folder key in Settings › Sync on a device that syncs there'],
];

/**
 * The refusal of a folder whose key another device made, when none was typed: the app's words
 * name `tock sync enable DIR --key KEY`; the window's step is the field below (`sync.keyNeeded`).
 */

/** A message from the app, with the CLI's next step said as the window's. */
export function windowWords(message: string): string {
  let words = message;
  for (const [cli, window] of CLI_STEPS) words = words.replaceAll(cli, window);
  return words;
}

function EnableForm({ status }: { status: SyncStatus }) {
  const t = useT();
  const [dir, setDir] = useState(status.dir ?? '');
  const [name, setName] = useState('');
  const [key, setKey] = useState('');
  const keyField = useRef<HTMLInputElement>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A missing or wrong key is the key field's to fix: the focus goes there.
  useEffect(() => {
    if (errors.key) keyField.current?.focus();
  }, [errors]);
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    if (dir.trim() === '') return setErrors({ dir: t('sync.dirNeeded') });
    setBusy(true);
    setErrors({});
    setFailure(null);
    try {
      await request('POST /api/sync/enable', { body: { dir: dir.trim(), name: name.trim(), key: key.trim() } });
    } catch (err) {
      const fields = fieldErrorsOf(err);
      // A refusal about one field is the problem's own line: its message, said from its code in the window's language.
      const said = (message: string): string => (err instanceof ApiError && err.code === 'sync_refused' && err.details.length === 1 ? err.message : message);
      const words = (field: string, message: string): string => (field === 'key' && key.trim() === '' ? t('sync.keyNeeded', { command: 'tock sync key' }) : windowWords(said(message)));
      if (fields) setErrors(Object.fromEntries(Object.entries(fields).map(([field, message]) => [field, words(field, message)])));
      else setFailure(windowWords(messageOf(err)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="port-form sync-form" onSubmit={(e) => void submit(e)} noValidate>
      <label for="sync-dir">{t('sync.folder')}</label>
      <p id="sync-dir-hint" class="hint">
        {t('sync.folderHint')}
      </p>
      <input
        id="sync-dir"
        type="text"
        value={dir}
        placeholder={t('sync.dirExample')}
        {...describedByError(errors.dir, 'sync-dir-error', 'sync-dir-hint')}
        onInput={(e) => setDir((e.target as HTMLInputElement).value)}
      />
      <FieldError id="sync-dir-error" message={errors.dir} alert />
      <label for="sync-name">{t('sync.name')}</label>
      <input
        id="sync-name"
        type="text"
        value={name}
        {...describedByError(errors.name, 'sync-name-error')}
        onInput={(e) => setName((e.target as HTMLInputElement).value)}
      />
      <FieldError id="sync-name-error" message={errors.name} alert />
      <label for="sync-key">{t('sync.key')}</label>
      <p id="sync-key-hint" class="hint">
        {t('sync.keyHint')}
      </p>
      <input
        id="sync-key"
        ref={keyField}
        type="text"
        value={key}
        autocomplete="off"
        spellcheck={false}
        {...describedByError(errors.key, 'sync-key-error', 'sync-key-hint')}
        onInput={(e) => setKey((e.target as HTMLInputElement).value)}
      />
      <FieldError id="sync-key-error" message={errors.key} alert />
      <div class="inline-row">
        <button type="submit" disabled={busy}>
          {t('sync.turnOn')}
        </button>
      </div>
      <Failure message={failure} />
    </form>
  );
}

function ThisDevice({ status }: { status: SyncStatus }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const disable = async (): Promise<void> => {
    setBusy(true);
    try {
      await request('POST /api/sync/disable');
    } catch (err) {
      setFailure(windowWords(messageOf(err)));
    } finally {
      setBusy(false);
    }
  };
  const device = status.device;
  if (!device) return null;
  return (
    <>
      <p class="status-line" data-testid="sync-this-device">
        <span class="dot" aria-hidden="true" />
        {/* One flex item: the line's words wrap as a sentence, not as columns. */}
        <span>
          <WithCode text={t('sync.isOn', { device: device.name, dir: CODE })} code={status.dir ?? ''} /> {t('sync.madeHere', { count: device.logLines })}
        </span>
      </p>
      {status.problem && (
        <p class="field-error" role="alert" data-testid="sync-folder-problem">
          {sentence(windowWords(deviceReasonText(status.problemReason) ?? syncProblemText(isDeviceReason(status.problemReason) ? null : status.problemReason, status.problem)))}
        </p>
      )}
      <FolderKey />
      <OneTimer on={status.oneTimer} />
      <div class="inline-row">
        <button type="button" disabled={busy} onClick={() => void disable()}>
          {t('sync.turnOff')}
        </button>
      </div>
      <Failure message={failure} />
    </>
  );
}

/**
 * The folder key, shown on request (as `tock sync key` prints it, any time) to carry to another
 * device, with Copy. It stays in this screen's memory only while shown.
 */
function FolderKey() {
  const t = useT();
  const [shown, setShown] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const show = async (): Promise<void> => {
    setFailure(null);
    setMessage(null);
    try {
      const { key } = await request('POST /api/sync/key');
      setShown(key);
    } catch (err) {
      setFailure(windowWords(messageOf(err)));
    }
  };
  const copy = async (text: string): Promise<void> => {
    setFailure(null);
    try {
      await navigator.clipboard.writeText(text);
      setMessage(t('sync.copied'));
    } catch {
      setFailure(t('sync.copyRefused'));
    }
  };
  return (
    <div class="folder-key" data-testid="sync-folder-key">
      {shown === null ? (
        <div class="inline-row">
          <button type="button" onClick={() => void show()}>
            {t('sync.showKey')}
          </button>
        </div>
      ) : (
        <>
          <label for="sync-key-value">{t('sync.keyValue')}</label>
          <div class="token-row">
            <input id="sync-key-value" class="token-value" type="text" readOnly value={shown} />
            <button type="button" onClick={() => void copy(shown)}>
              {t('sync.copy')}
            </button>
            <button
              type="button"
              onClick={() => {
                setShown(null);
                setMessage(null);
              }}
            >
              {t('sync.hide')}
            </button>
          </div>
        </>
      )}
      <p role="status" class="success">
        {message}
      </p>
      <Failure message={failure} />
    </div>
  );
}

/** The one-timer setting (docs/sync.md "One timer"): a later start on another device stops the timer here. */
function OneTimer({ on }: { on: boolean }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const toggle = async (value: boolean): Promise<void> => {
    setBusy(true);
    setFailure(null);
    try {
      await request('POST /api/sync/one-timer', { body: { on: value } });
    } catch (err) {
      setFailure(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="one-timer">
      <label class="check">
        <input type="checkbox" checked={on} disabled={busy} aria-describedby="one-timer-hint" onChange={(e) => void toggle((e.target as HTMLInputElement).checked)} />
        {t('sync.oneTimer')}
      </label>
      <p id="one-timer-hint" class="hint">
        {on ? t('sync.oneTimerOn') : t('sync.oneTimerOff')}
      </p>
      <Failure message={failure} />
    </div>
  );
}

function OtherDevices({ status }: { status: SyncStatus }) {
  const t = useT();
  return (
    <section class="card" aria-labelledby="sync-devices-heading">
      <h2 id="sync-devices-heading">{t('sync.othersHeading')}</h2>
      {status.devices.length === 0 ? (
        <p class="muted">{t('sync.noOthers')}</p>
      ) : (
        <div class="table-wrap">
          <table class="requests" data-testid="sync-devices">
            <thead>
              <tr>
                <th scope="col">{t('sync.device')}</th>
                <th scope="col">{t('sync.lastChange')}</th>
                <th scope="col">{t('sync.applied')}</th>
                <th scope="col">{t('sync.problem')}</th>
              </tr>
            </thead>
            <tbody>
              {status.devices.map((d) => (
                <tr key={d.deviceID}>
                  <td data-label={t('sync.device')}>
                    {d.name ?? t('sync.unnamed')}
                    <br />
                    <code class="muted">{d.deviceID}</code>
                  </td>
                  <td data-label={t('sync.lastChange')}>{when(t, d.lastChange)}</td>
                  <td data-label={t('sync.applied')}>
                    {t('sync.changes', { count: d.applied })}
                    {d.behind > 0 ? t('sync.behind', { count: d.behind }) : ''}
                  </td>
                  <td data-label={t('sync.problem')}>{d.problem === null ? t('sync.none') : deviceProblemText(d)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function Sync() {
  const t = useT();
  const { snapshot } = useAppState();
  if (!snapshot) return null;
  const status = snapshot.sync;
  return (
    <div class="screen">
      <ScreenHead title={t('screen.sync')}>{t('sync.intro')}</ScreenHead>
      <section class="card" aria-labelledby="sync-this-heading">
        <h2 id="sync-this-heading">{t('sync.thisHeading')}</h2>
        {status.enabled ? <ThisDevice status={status} /> : <EnableForm status={status} />}
      </section>
      {status.enabled && <OtherDevices status={status} />}
    </div>
  );
}

/** Another device's problem in the window's language: by its code, the reason inside a refused or held line by its own; the app's English otherwise. */
function deviceProblemText(d: SyncStatus['devices'][number]): string {
  const reason = withLineWords(d.problemReason, d.problemLine);
  return deviceReasonText(reason) ?? syncProblemText(isDeviceReason(reason) ? null : reason, d.problem ?? '');
}
