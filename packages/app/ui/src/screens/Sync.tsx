/**
 * Settings › Sync (docs/ui.md "Sync"; how sync works: docs/sync.md): the folder this device
 * syncs through, its name and the folder's key when another device made it — turned on with a
 * form, off with a button — the folder key shown on request to carry to another device, and every other
 * device seen in the folder with its last change, how many of its changes are applied here,
 * and any problem with its files. The app's refusals are shown next to their field, with the
 * window's words for the step they name as a `tock sync` command.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { request, messageOf } from '../api.ts';
import { describedByError, FieldError, fieldErrorsOf } from '../components/FieldError.tsx';
import { Failure } from '../components/FormActions.tsx';
import { ScreenHead } from '../components/ScreenHead.tsx';
import { sentence } from '../sentence.ts';
import { useAppState } from '../state.ts';
import { dayAndTime } from '../time.ts';
import type { SyncStatus } from '../types.ts';

function when(iso: string | null): string {
  if (iso === null) return 'never';
  return dayAndTime(Date.parse(iso));
}

/** `1 change`, `22 changes` (the words of `tock sync status`). */
function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
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
 * name `tock sync enable DIR --key KEY`; the window's step is the field below.
 */
const KEY_NEEDED = 'This folder already syncs with a folder key that another device made: paste it here. On that device, press Show the folder key in Settings › Sync (or run tock sync key).';

/** A message from the app, with the CLI's next step said as the window's. */
export function windowWords(message: string): string {
  let words = message;
  for (const [cli, window] of CLI_STEPS) words = words.replaceAll(cli, window);
  return words;
}

function EnableForm({ status }: { status: SyncStatus }) {
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
    if (dir.trim() === '') return setErrors({ dir: 'Enter the folder your sync engine shares, a folder such as ~/Sync/tock.' });
    setBusy(true);
    setErrors({});
    setFailure(null);
    try {
      await request('POST /api/sync/enable', { body: { dir: dir.trim(), name: name.trim(), key: key.trim() } });
    } catch (err) {
      const fields = fieldErrorsOf(err);
      const words = (field: string, message: string): string => (field === 'key' && key.trim() === '' ? KEY_NEEDED : windowWords(message));
      if (fields) setErrors(Object.fromEntries(Object.entries(fields).map(([field, message]) => [field, words(field, message)])));
      else setFailure(windowWords(messageOf(err)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="port-form sync-form" onSubmit={(e) => void submit(e)} noValidate>
      <label for="sync-dir">Folder</label>
      <p id="sync-dir-hint" class="hint">
        The folder your sync engine shares, a folder such as ~/Sync/tock.
      </p>
      <input
        id="sync-dir"
        type="text"
        value={dir}
        placeholder="~/Sync/tock"
        {...describedByError(errors.dir, 'sync-dir-error', 'sync-dir-hint')}
        onInput={(e) => setDir((e.target as HTMLInputElement).value)}
      />
      <FieldError id="sync-dir-error" message={errors.dir} alert />
      <label for="sync-name">This device’s name (optional; the host name otherwise)</label>
      <input
        id="sync-name"
        type="text"
        value={name}
        {...describedByError(errors.name, 'sync-name-error')}
        onInput={(e) => setName((e.target as HTMLInputElement).value)}
      />
      <FieldError id="sync-name-error" message={errors.name} alert />
      <label for="sync-key">Folder key (only when another device syncs there already)</label>
      <p id="sync-key-hint" class="hint">
        Paste the key that device shows under Show the folder key; letters, dashes and spaces as they come.
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
          Turn sync on
        </button>
      </div>
      <Failure message={failure} />
    </form>
  );
}

function ThisDevice({ status }: { status: SyncStatus }) {
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
          Sync is on: <strong>{device.name}</strong> writes its changes to <code>{status.dir}</code>.{' '}
          {count(device.logLines, 'change made here is', 'changes made here are')} in the folder for the other devices.
        </span>
      </p>
      {status.problem && (
        <p class="field-error" role="alert" data-testid="sync-folder-problem">
          {sentence(windowWords(status.problem))}
        </p>
      )}
      <FolderKey />
      <OneTimer on={status.oneTimer} />
      <div class="inline-row">
        <button type="button" disabled={busy} onClick={() => void disable()}>
          Turn sync off
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
      setMessage('Folder key copied to the clipboard.');
    } catch {
      setFailure('The browser did not allow copying: select the key and copy it by hand.');
    }
  };
  return (
    <div class="folder-key" data-testid="sync-folder-key">
      {shown === null ? (
        <div class="inline-row">
          <button type="button" onClick={() => void show()}>
            Show the folder key
          </button>
        </div>
      ) : (
        <>
          <label for="sync-key-value">Folder key (paste it on your other device, under Folder key)</label>
          <div class="token-row">
            <input id="sync-key-value" class="token-value" type="text" readOnly value={shown} />
            <button type="button" onClick={() => void copy(shown)}>
              Copy
            </button>
            <button
              type="button"
              onClick={() => {
                setShown(null);
                setMessage(null);
              }}
            >
              Hide
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
        One timer across my devices
      </label>
      <p id="one-timer-hint" class="hint">
        {on
          ? 'A timer started on another device stops the one running here, at the moment it started there.'
          : 'Off: each device keeps its own timer running, and their time can overlap.'}
      </p>
      <Failure message={failure} />
    </div>
  );
}

function OtherDevices({ status }: { status: SyncStatus }) {
  return (
    <section class="card" aria-labelledby="sync-devices-heading">
      <h2 id="sync-devices-heading">Other devices</h2>
      {status.devices.length === 0 ? (
        <p class="muted">No other device in the folder yet. Turn sync on with the same folder on your other machines.</p>
      ) : (
        <div class="table-wrap">
          <table class="requests" data-testid="sync-devices">
            <thead>
              <tr>
                <th scope="col">Device</th>
                <th scope="col">Last change</th>
                <th scope="col">Its changes applied here</th>
                <th scope="col">Problem</th>
              </tr>
            </thead>
            <tbody>
              {status.devices.map((d) => (
                <tr key={d.deviceID}>
                  <td>
                    {d.name ?? 'unnamed'}
                    <br />
                    <code class="muted">{d.deviceID}</code>
                  </td>
                  <td>{when(d.lastChange)}</td>
                  <td>
                    {count(d.applied, 'change', 'changes')}
                    {d.behind > 0 ? `; ${count(d.behind, 'more is', 'more are')} still to apply` : ''}
                  </td>
                  <td>{d.problem ?? 'none'}</td>
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
  const { snapshot } = useAppState();
  if (!snapshot) return null;
  const status = snapshot.sync;
  return (
    <div class="screen">
      <ScreenHead title="Sync">
        One history on several machines, through a folder that Syncthing, Dropbox or another sync engine keeps in step. Tock itself
        opens no connection.
      </ScreenHead>
      <section class="card" aria-labelledby="sync-this-heading">
        <h2 id="sync-this-heading">This device</h2>
        {status.enabled ? <ThisDevice status={status} /> : <EnableForm status={status} />}
      </section>
      {status.enabled && <OtherDevices status={status} />}
    </div>
  );
}
