/**
 * The X11 focus source (docs/desktop.md "Capture"): EWMH `_NET_ACTIVE_WINDOW` on the root
 * window names the focused window; its `WM_CLASS` gives the application and `_NET_WM_NAME`
 * (else `WM_NAME`) the title. Both are followed through PropertyNotify events by two
 * `xprop -spy` helpers (x11-utils): one on the root window for the whole run, one on the
 * focused window, started when `_NET_ACTIVE_WINDOW` names another window. The same id reported
 * again (the root helper reads the property after openbox wrote both of a change's values, no
 * window then the new one, and prints the new id twice: one change in five in bench figure 22)
 * is the same window while its helper runs, since `xprop -spy` ends when its window is
 * destroyed: an id that X gave a new window after the focused one closed (X reuses ids) is read
 * afresh — the id alone never decides that nothing moved. Nothing polls: an X server with
 * nothing changing costs nothing. Why xprop and not an X11 library: docs/decisions.md "Capture".
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { CAPTURED_TEXT_LIMITS, cutToCharacters } from '@tock/core';
import { runCommand } from '../run-command.ts';
import { FocusSourceUnavailable, SourceReason, type FocusedWindow, type FocusFollower, type FocusSource, type FocusSourceContext } from './focus-source.ts';

/**
 * `_NET_ACTIVE_WINDOW(WINDOW): window id # 0x1400007` → `0x1400007`; none (`0x0`, not found,
 * or no such atom yet: the window manager has not set it since the server started) → null;
 * another line → undefined.
 */
export function parseActiveWindowLine(line: string): string | null | undefined {
  if (/^_NET_ACTIVE_WINDOW:\s+(?:not found|no such atom on any window)\.?$/.test(line.trim())) return null;
  const id = /^_NET_ACTIVE_WINDOW\(WINDOW\): window id # (0x[0-9a-f]+)/i.exec(line.trim())?.[1];
  if (id === undefined) return undefined;
  return /^0x0+$/i.test(id) ? null : id.toLowerCase();
}

/**
 * Bytes of each string decoded: enough for the 512 characters capture keeps of a title (4 bytes
 * at most each). A window may set a title of megabytes (xprop prints up to 500 000 bytes of
 * it); decoding the whole of one held the app ~0.4 s per change.
 */
const DECODED_BYTES = 4 * CAPTURED_TEXT_LIMITS.title;

/**
 * The quoted strings of an xprop value (`"one", "Two \"x\""`), unescaped, each cut to its
 * first 512 characters (capture keeps no more: the rest is never decoded). xprop writes bytes
 * it cannot show in the locale as octal escapes (`\342\200\224`, an em dash in a title typed
 * `STRING`); they are put back together as UTF-8.
 */
export function parseXpropStrings(value: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"/g;
  for (let m = re.exec(value); m !== null; m = re.exec(value)) {
    const text = m[1] as string;
    const bytes: number[] = [];
    let i = 0;
    while (i < text.length && bytes.length < DECODED_BYTES) {
      const octal = /^\\([0-7]{3})/.exec(text.slice(i, i + 4));
      if (octal) {
        bytes.push(Number.parseInt(octal[1] as string, 8) & 0xff);
        i += 4;
        continue;
      }
      let c = String.fromCodePoint(text.codePointAt(i) as number);
      i += c.length;
      if (c === '\\' && i < text.length) {
        const next = String.fromCodePoint(text.codePointAt(i) as number);
        i += next.length;
        c = next === 'n' ? '\n' : next === 't' ? '\t' : next;
      }
      bytes.push(...Buffer.from(c, 'utf8'));
    }
    const decoded = Buffer.from(bytes).toString('utf8');
    // Cut short, the last character's bytes may be partial: the first 512 are whole.
    out.push(i < text.length ? cutToCharacters(decoded, CAPTURED_TEXT_LIMITS.title) : decoded);
  }
  return out;
}

/** One line of `xprop -spy -id W WM_CLASS _NET_WM_NAME WM_NAME`: the property and its strings (absent: `not found`). */
export function parseWindowPropertyLine(line: string): { property: 'WM_CLASS' | '_NET_WM_NAME' | 'WM_NAME'; values: string[] | null } | undefined {
  const m = /^(WM_CLASS|_NET_WM_NAME|WM_NAME)(?:\([A-Z_0-9]+\))?(?:\s*=\s*(.*)|:\s+not found\.?)$/.exec(line.trim());
  if (!m) return undefined;
  return { property: m[1] as 'WM_CLASS' | '_NET_WM_NAME' | 'WM_NAME', values: m[2] === undefined ? null : parseXpropStrings(m[2]) };
}

/** The window as its properties say: the class (second WM_CLASS string, else the first) and the EWMH title, else the ICCCM one. */
export class WindowProperties {
  #wmClass: string[] | null = null;
  #netName: string | null = null;
  #wmName: string | null = null;

  /** Takes one line; true when it changed what {@link window} gives. */
  take(line: string): boolean {
    const parsed = parseWindowPropertyLine(line);
    if (parsed === undefined) return false;
    const before = JSON.stringify(this.window());
    if (parsed.property === 'WM_CLASS') this.#wmClass = parsed.values;
    else if (parsed.property === '_NET_WM_NAME') this.#netName = parsed.values?.[0] ?? null;
    else this.#wmName = parsed.values?.[0] ?? null;
    return JSON.stringify(this.window()) !== before;
  }

  window(): FocusedWindow {
    const cls = this.#wmClass;
    const app = cls === null ? null : (cls[1] ?? cls[0] ?? null) || null;
    return { app, title: this.#netName ?? this.#wmName };
  }
}

/**
 * Which window the focused window's helper follows, decided from the root's reports of
 * `_NET_ACTIVE_WINDOW` and the ends of that helper (`xprop -spy` ends when its window is
 * destroyed). An id reported again while its helper runs names the same window; after that
 * helper ended it may name a new window that X gave the id, so it is read afresh — also when
 * the end is heard only after the report.
 */
export class WindowFollowing {
  #id: string | null = null;
  #running = false;
  #reportedAgain = false;

  /** A report: the id to start a helper on (null: none, no window has the focus), or undefined to keep the running one. */
  reported(id: string | null): string | null | undefined {
    if (id !== null && id === this.#id && this.#running) {
      this.#reportedAgain = true;
      return undefined;
    }
    this.#id = id;
    this.#running = id !== null;
    this.#reportedAgain = false;
    return id;
  }

  /** The helper on the followed window ended: the id to start a helper on again (reported again meanwhile), else undefined. */
  ended(): string | undefined {
    this.#running = false;
    if (!this.#reportedAgain || this.#id === null) return undefined;
    this.#reportedAgain = false;
    this.#running = true;
    return this.#id;
  }
}

const LOCALE = { LC_ALL: 'C.UTF-8' };

function spawnXprop(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn('xprop', args, { env: { ...env, ...LOCALE }, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
}

/** What the X11 source may be given besides the environment. */
export interface X11SourceOptions {
  /** Called with the arguments of each `xprop` the source starts (a test counts the starts per focus change). */
  onHelperStart?: (args: readonly string[]) => void;
}

/** The X11 source: needs `DISPLAY`, `xprop`, and a window manager that sets `_NET_ACTIVE_WINDOW`. */
export function x11FocusSource(context: Pick<FocusSourceContext, 'env'> & X11SourceOptions): FocusSource {
  const { env, onHelperStart } = context;
  const startXprop = (args: string[]): ChildProcess => {
    onHelperStart?.(args);
    return spawnXprop(args, env);
  };
  return {
    id: 'x11',
    name: 'X11 (EWMH, xprop)',
    async check() {
      return (await this.diagnose?.())?.text ?? null;
    },
    async diagnose() {
      if (!env.DISPLAY) return new SourceReason('not_set', 'no X display (DISPLAY is not set)', { variable: 'DISPLAY' });
      try {
        const out = await runCommand(['xprop', '-root', '_NET_SUPPORTING_WM_CHECK'], { env: { ...env, ...LOCALE } });
        if (/not found/.test(out)) return new SourceReason('no_ewmh', 'the window manager does not follow EWMH (no _NET_SUPPORTING_WM_CHECK on the root window)');
        return null;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return /not installed/.test(message)
          ? new SourceReason('not_installed', 'xprop is not installed (Debian/Ubuntu: x11-utils)', { program: 'xprop', package: 'x11-utils' })
          : new SourceReason('other', `cannot read the X display ${env.DISPLAY}: ${message}`);
      }
    },
    async follow(onFocus, onLost) {
      const reason = await this.check();
      if (reason !== null) throw new FocusSourceUnavailable(reason);
      let stopped = false;
      let windowSpy: ChildProcess | null = null;
      const following = new WindowFollowing();
      const root = startXprop(['-spy', '-root', '_NET_ACTIVE_WINDOW']);

      const followWindow = (id: string | null): void => {
        windowSpy?.kill();
        windowSpy = null;
        if (id === null) {
          onFocus(null);
          return;
        }
        const props = new WindowProperties();
        const spy = startXprop(['-spy', '-id', id, 'WM_CLASS', '_NET_WM_NAME', 'WM_NAME']);
        windowSpy = spy;
        // The first three lines are the current values: one report once all have come.
        let seen = 0;
        createInterface({ input: spy.stdout as NodeJS.ReadableStream }).on('line', (line) => {
          if (spy !== windowSpy) return;
          const changed = props.take(line);
          seen++;
          if (seen === 3 || (seen > 3 && changed)) onFocus(props.window());
        });
        // A window closed while focused: its spy ends; the root spy reports the next focus
        // (or reported it already: then the id is read afresh, see WindowFollowing).
        spy.on('exit', () => {
          if (spy !== windowSpy || stopped) return;
          const again = following.ended();
          if (again !== undefined) followWindow(again);
        });
        spy.on('error', () => {});
      };

      await new Promise<void>((resolve, reject) => {
        let started = false;
        createInterface({ input: root.stdout as NodeJS.ReadableStream }).on('line', (line) => {
          const id = parseActiveWindowLine(line);
          if (id === undefined) return;
          if (!started) {
            started = true;
            resolve();
          }
          const next = following.reported(id);
          if (next !== undefined) followWindow(next);
        });
        root.on('error', (error) => (started ? undefined : reject(new FocusSourceUnavailable(`xprop: ${error.message}`))));
        root.on('exit', (code) => {
          windowSpy?.kill();
          windowSpy = null;
          if (!started) reject(new FocusSourceUnavailable(`xprop exited (${code}) before reporting the focused window`));
          else if (!stopped) onLost(`xprop stopped following the X display (exit ${code})`);
        });
      });
      const follower: FocusFollower = {
        stop() {
          stopped = true;
          windowSpy?.kill();
          windowSpy = null;
          root.kill();
        },
      };
      return follower;
    },
  };
}
