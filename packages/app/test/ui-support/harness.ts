/**
 * What the window's tests share: a real Tock app in-process (file credential store, a fresh
 * home), the built window (built once if missing), a real Chromium driven by
 * playwright-core, requests signed like a client's (docs/protocol.md "Request signing"), axe-core, and screenshots
 * under `test-output/screenshots/`. A missing Chromium fails the tests: it is never skipped.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startApp, type AppOptions, type AppServices, type RunningApp } from '@tock/app/start';
import { signed } from '../support/signed.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const CHROMIUM = '/usr/bin/chromium';
const DIST_INDEX = join(REPO_ROOT, 'packages/window/dist/index.html');
const SCREENSHOTS = join(REPO_ROOT, 'test-output/screenshots');

/** Builds the window once when `npm run build:ui` has not been run (plain `node --test`). */
export function ensureWindowBuilt(): void {
  if (existsSync(DIST_INDEX)) return;
  execFileSync(join(REPO_ROOT, 'node_modules/.bin/vite'), ['build', '--config', 'packages/window/vite.config.ts', '--logLevel', 'warn'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
}

/** A running app on a fresh home, with its window's address split into parts. */
export interface TestApp {
  app: RunningApp;
  home: string;
  /** The printed address, with the launch code made at start (good once, for 5 minutes). */
  url: string;
  /** A fresh address with a launch code of its own, as `tock open --print` gives. */
  launchUrl(): string;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Starts a real app under a temporary home (file credential store unless `env` says otherwise);
 * `options` are the app's own test seams (an injected clock, desktop stand-ins).
 */
export async function startTestApp(env: NodeJS.ProcessEnv = {}, options: Omit<AppOptions, 'home' | 'env'> = {}): Promise<TestApp> {
  const home = mkdtempSync(join(tmpdir(), 'tock-ui-test-'));
  const app = await startApp({ ...options, home, env: { ...process.env, TOCK_CREDENTIAL_STORE: 'file', ...env } });
  const url = new URL(app.uiUrl);
  return {
    app,
    home,
    url: app.uiUrl,
    launchUrl: () => app.launchUrl(),
    origin: url.origin,
    port: Number(url.port),
    async stop() {
      await app.stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** What {@link windowSuite} starts. */
export interface WindowSuiteOptions {
  /** The app's environment beyond the file credential store (see {@link startTestApp}). */
  env?: NodeJS.ProcessEnv;
  /** The app's own test seams: an injected clock (`clock: () => now`), desktop stand-ins. */
  app?: Omit<AppOptions, 'home' | 'env'>;
  /** Keep sessions made by a start and a stop a moment apart (crumbs are core's tests'). */
  keepShortSessions?: boolean;
  /** Runs on the started app before the browser opens: activities, clients, settings. */
  seed?: (app: TestApp) => void | Promise<void>;
  /** The browser's colour scheme, viewport and locale. */
  browser?: LaunchOptions;
}

/** A suite's app and browser, readable once its `before` hook has run. */
export interface WindowSuite {
  readonly app: TestApp;
  readonly services: AppServices;
  readonly browser: TestBrowser;
  /** The browser's first page. */
  readonly page: Page;
}

/**
 * Starts one app and one Chromium for the suite that calls it (its `before` hook) and stops
 * them after its tests (its `after` hook): the browser first, so that its windows' requests and
 * live feeds end before the app's servers close.
 */
export function windowSuite(options: WindowSuiteOptions = {}): WindowSuite {
  let app: TestApp | undefined;
  let browser: TestBrowser | undefined;
  before(async () => {
    ensureWindowBuilt();
    app = await startTestApp(options.env, options.app);
    if (options.keepShortSessions) app.app.services.store.settings.set('minSessionSeconds', 0);
    await options.seed?.(app);
    browser = await launchBrowser(options.browser);
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the window suite is not started: read it inside a test or a hook after its before()');
    return value;
  };
  return {
    get app() {
      return started(app);
    },
    get services() {
      return started(app).app.services;
    },
    get browser() {
      return started(browser);
    },
    get page() {
      return started(browser).page;
    },
  };
}

/** A Chromium with a fresh profile. */
export interface TestBrowser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** The window's size when a test gives none. */
const DEFAULT_VIEWPORT = { width: 1200, height: 860 };

/** How {@link launchBrowser} sets the browser up. */
export interface LaunchOptions {
  colorScheme?: 'light' | 'dark';
  width?: number;
  height?: number;
  locale?: string;
}

/** Launches Debian's Chromium (never downloads one); throws when it is missing. */
export async function launchBrowser(options: LaunchOptions = {}): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is required for the window's tests and was not found at ${CHROMIUM}`);
  const profile = mkdtempSync(join(tmpdir(), 'tock-ui-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    colorScheme: options.colorScheme ?? 'light',
    viewport: { width: options.width ?? DEFAULT_VIEWPORT.width, height: options.height ?? DEFAULT_VIEWPORT.height },
    reducedMotion: 'reduce',
    ...(options.locale ? { locale: options.locale } : {}),
    // Chromium does not start under libfaketime (its zygote fails): it runs on the real clock
    // and its pages get the tests' pinned one (scripts/pinned-clock.sh) from Playwright below.
    env: withoutFaketime(process.env),
  });
  await context.clock.setSystemTime(Date.now());
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * A new tab of `browser` at its own size and colour scheme: what a fresh Chromium with those
 * options shows, without its launch (about 0.6 s). Close it when done.
 */
export async function newTab(browser: TestBrowser, options: Omit<LaunchOptions, 'locale'> = {}): Promise<Page> {
  const page = await browser.context.newPage();
  if (options.width !== undefined || options.height !== undefined) await page.setViewportSize({ width: options.width ?? DEFAULT_VIEWPORT.width, height: options.height ?? DEFAULT_VIEWPORT.height });
  if (options.colorScheme) await page.emulateMedia({ colorScheme: options.colorScheme });
  return page;
}

/** The environment without libfaketime's variables, for a program that cannot run under it. */
export function withoutFaketime(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || name === 'FAKETIME' || name === 'DONT_FAKE_MONOTONIC') continue;
    out[name] = name === 'LD_PRELOAD' ? value.split(/[: ]/).filter((lib) => !lib.includes('faketime')).join(':') : value;
  }
  return out;
}

/** Saves a full-page screenshot as `test-output/screenshots/<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** An axe-core violation, as much as the tests report. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

let axeSource: string | undefined;

/** Runs axe-core in the page; returns the serious and critical violations. */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  // The window's CSP forbids inline script, so axe is evaluated through the DevTools protocol,
  // once a page load (a screen shown without a reload keeps it).
  if (!(await page.evaluate(() => 'axe' in globalThis))) {
    axeSource ??= readFileSync(join(REPO_ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
    await page.evaluate(axeSource);
  }
  const violations = (await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  })) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * The fields of the page (text boxes, selects, text areas; not disabled ones, nor checkboxes
 * and radios, which Chromium draws) whose edge stands out less than 3:1 from what is around
 * them (WCAG 1.4.11 "Non-text contrast"; axe-core checks text only): neither the border nor
 * the fill reaches 3:1 against the background behind the field. One line each, with both ratios.
 */
export function faintFieldEdges(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const rgba = (color: string): number[] => {
      const [r = 0, g = 0, b = 0, a = 1] = (color.match(/[\d.]+/g) ?? []).map(Number);
      return [r, g, b, a];
    };
    const over = (top: number[], under: number[]): number[] => [0, 1, 2].map((i) => (top[i] as number) * (top[3] as number) + (under[i] as number) * (1 - (top[3] as number))).concat(1);
    const luminance = (c: number[]): number => {
      const lin = (v: number): number => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(c[0] as number) + 0.7152 * lin(c[1] as number) + 0.0722 * lin(c[2] as number);
    };
    const ratio = (a: number[], b: number[]): number => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
      return (hi + 0.05) / (lo + 0.05);
    };
    /** The colour behind `el`: its own background and its ancestors', laid over each other. */
    const backdrop = (el: Element | null): number[] => {
      const layers: number[][] = [];
      for (let at = el; at; at = at.parentElement) {
        const color = rgba(getComputedStyle(at).backgroundColor);
        if ((color[3] as number) > 0) layers.push(color);
        if (color[3] === 1) break;
      }
      return layers.reverse().reduce((under, top) => over(top, under), [255, 255, 255, 1]);
    };
    const faint: string[] = [];
    for (const field of document.querySelectorAll<HTMLElement>('input:not([type=checkbox]):not([type=radio]):not([type=hidden]):not(:disabled), select:not(:disabled), textarea:not(:disabled)')) {
      if (field.getBoundingClientRect().width === 0) continue;
      const style = getComputedStyle(field);
      const around = backdrop(field.parentElement);
      const fill = ratio(backdrop(field), around);
      const border = style.borderTopStyle === 'none' || style.borderTopWidth === '0px' ? 1 : ratio(over(rgba(style.borderTopColor), around), around);
      if (Math.max(fill, border) < 3) faint.push(`#${field.id || field.tagName.toLowerCase()}: border ${border.toFixed(2)}:1, fill ${fill.toFixed(2)}:1`);
    }
    return faint;
  });
}

/** An HTTP response as the tests look at it. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** The session header of a window, got as the window gets it: a fresh launch code redeemed with a same-origin POST. */
export async function windowSession(app: TestApp): Promise<Record<string, string>> {
  const code = new URL(app.launchUrl()).searchParams.get('k') as string;
  const res = await rawRequest(app.port, 'POST', '/launch', { host: `127.0.0.1:${app.port}`, origin: app.origin, 'content-type': 'application/json' }, JSON.stringify({ code }));
  if (res.status !== 200) throw new Error(`the launch code was refused: ${res.status} ${res.body}`);
  return { 'x-tock-session': (JSON.parse(res.body) as { result: { session: string } }).result.session };
}

/** A window API call's answer: its status and its JSON envelope. */
export interface WindowAnswer {
  status: number;
  json: { result?: unknown; code?: string; error?: string };
}

/** Calls the window API of `app` as its window does, with a session of its own (JSON body). */
export async function windowApi(app: TestApp): Promise<(method: string, path: string, body?: unknown) => Promise<WindowAnswer>> {
  const session = await windowSession(app);
  return async (method, path, body) => {
    const headers = { host: `127.0.0.1:${app.port}`, origin: app.origin, 'content-type': 'application/json', ...session };
    const answer = await rawRequest(app.port, method, path, headers, body === undefined ? '' : JSON.stringify(body));
    return { status: answer.status, json: JSON.parse(answer.body) };
  };
}

/** A plain HTTP request to 127.0.0.1 with exactly the headers given (Host included). */
export function rawRequest(port: number, method: string, path: string, headers: Record<string, string>, body = ''): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A request to the listener signed with `token` as docs/protocol.md "Request signing" says (the tests' independent signer). */
export async function signedRequest(port: number, token: string, method: string, path: string, body?: unknown): Promise<RawResponse> {
  const answer = await signed(port, token, { method, target: path, body });
  return { status: answer.status, headers: answer.headers, body: answer.text };
}

/** The listener's port from a status line `active on 127.0.0.1:<port>`. */
export function portFromStatusLine(line: string): number {
  const m = /^active on 127\.0\.0\.1:(\d+)$/.exec(line);
  if (!m) throw new Error(`the listener is not active: "${line}"`);
  return Number(m[1]);
}

/** A port that was free a moment ago (for the listener; 1024–65535). */
export { freePort } from '../support/real-app.ts';

/** Each screen's heading in English, by its address (a screen left out is waited for by any heading). */
const SCREEN_TITLES: Record<string, string> = {
  '': 'Today',
  '/today': 'Today',
  '/history': 'History',
  '/activities': 'Activities',
  '/settings/integrations': 'Integrations',
  '/settings/desktop': 'Desktop',
  '/settings/sync': 'Sync',
  '/settings/data': 'Data',
  '/settings/license': 'License',
  '/settings/capture': 'Capture',
  '/settings/business': 'Business',
  '/settings/calendar': 'Calendar',
  '/clients': 'Clients',
  '/invoices': 'Invoices',
  '/reports': 'Reports',
};

/** Counts the page's requests to `pathname` from now until `stop` (how often a screen read something). */
export function countRequests(page: Page, pathname: string): { readonly count: number; stop(): void } {
  let count = 0;
  const heard = (request: { url(): string }): void => {
    if (new URL(request.url()).pathname === pathname) count++;
  };
  page.on('request', heard);
  return {
    get count() {
      return count;
    },
    stop: () => page.off('request', heard),
  };
}

/** Opens the window at a fresh launch address (as `tock open` does) and waits until it has drawn its first screen. */
export async function openWindow(page: Page, app: TestApp, screen = ''): Promise<void> {
  page.setDefaultTimeout(15_000);
  await page.goto(`${app.launchUrl()}${screen ? `#${screen}` : ''}`);
  await waitForHeading(page, screen);
}

/**
 * Shows `screen` as the navigation does — the address's hash changes, the page stays, its
 * session too — and waits for the screen's heading; in a page that shows no window of `app`
 * yet, opens one first ({@link openWindow}). A walk over every screen loads the window once
 * instead of once a screen.
 */
export async function showScreen(page: Page, app: TestApp, screen: string): Promise<void> {
  if (!page.url().startsWith(`${app.origin}/`)) return openWindow(page, app, screen);
  await page.evaluate((hash) => {
    location.hash = hash;
  }, screen);
  await page.waitForFunction((hash) => location.hash === `#${hash}`, screen);
  await waitForHeading(page, screen);
}

async function waitForHeading(page: Page, screen: string): Promise<void> {
  const title = SCREEN_TITLES[screen];
  try {
    await page.locator('main h1').filter({ hasText: title ?? /./ }).waitFor();
  } catch (error) {
    const seen = await page.evaluate(() => `${location.href} shows "${document.querySelector('main h1')?.textContent ?? document.body.textContent?.slice(0, 200)}"`);
    throw new Error(`the window did not show ${title ?? 'a screen'}: ${seen}`, { cause: error });
  }
}

/**
 * Presses Tab until the focused element matches `selector` (at most `max` times) — proof that
 * keyboard users can reach it — and checks that the focus is visible (an outline is drawn).
 */
export async function tabTo(page: Page, selector: string, options: { text?: string; max?: number } = {}): Promise<void> {
  const { text, max = 40 } = options;
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const hit = await page.evaluate(
      ([sel, txt]) => {
        const el = document.activeElement;
        return Boolean(el?.matches(sel as string) && (txt === null || el.textContent?.trim() === txt));
      },
      [selector, text ?? null] as const,
    );
    if (hit) {
      const outline = await page.evaluate(() => {
        const style = getComputedStyle(document.activeElement as Element);
        return `${style.outlineStyle} ${style.outlineWidth}`;
      });
      if (outline.startsWith('none') || outline.endsWith(' 0px')) throw new Error(`focus on ${selector} is not visible (outline: ${outline})`);
      return;
    }
  }
  throw new Error(`${selector}${text ? ` "${text}"` : ''} cannot be reached with Tab`);
}

/**
 * Waits until Today's own request (a start, switch, break, resume, stop) is over: Start/Switch is
 * enabled again. The live feed can show the change before the window's answer comes; until then
 * the answer may still empty the search and note fields, and Today's buttons are disabled (Tab
 * passes them by, a click waits).
 */
export async function todaySettled(page: Page): Promise<void> {
  await page.waitForFunction(() => (document.querySelector('form.start-form button[type=submit]') as HTMLButtonElement | null)?.disabled === false);
}

/** Takes the focus off whatever has it, so the next Tab starts from the top of the page. */
export async function blur(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}
