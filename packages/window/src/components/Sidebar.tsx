/**
 * The window's navigation (docs/ui.md "Every size"). On a wide window, a sidebar: the app's
 * name, the screens, what runs now and the version. Below 760 px (the `max-width: 760px` rule of
 * styles.css) the same markup is a top bar — the name, the current screen and a *Menu* button —
 * and the screens with what runs now open under it as a disclosure over the content, so a
 * screen starts on the first view instead of under the whole list. The menu closes when a
 * screen is chosen, on Escape, on a click or tap outside it and when the focus leaves it;
 * Escape, the tap outside and choosing the screen already shown put the focus back on *Menu*
 * (choosing another screen moves it to that screen's heading, as App does for every change).
 */
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { colorClass } from '../colors.ts';
import { type MessageKey, useT } from '../i18n/index.ts';
import { liveSeconds, useAppState, useTick } from '../state.ts';
import { stopwatch } from '../time.ts';

/** Where the sidebar becomes a top bar; the same width as the `max-width: 760px` rules of styles.css. */
const NARROW = '(max-width: 760px)';

/** The screens in the order the navigation lists them; `settings` ones go under the *Settings* group. */
const LINKS: readonly { path: string; label: MessageKey; settings?: true }[] = [
  { path: '/today', label: 'screen.today' },
  { path: '/history', label: 'screen.history' },
  { path: '/reports', label: 'screen.reports' },
  { path: '/activities', label: 'screen.activities' },
  { path: '/clients', label: 'screen.clients' },
  { path: '/invoices', label: 'screen.invoices' },
  { path: '/settings/integrations', label: 'screen.integrations', settings: true },
  { path: '/settings/desktop', label: 'screen.desktop', settings: true },
  { path: '/settings/capture', label: 'screen.capture', settings: true },
  { path: '/settings/calendar', label: 'screen.calendar', settings: true },
  { path: '/settings/business', label: 'screen.business', settings: true },
  { path: '/settings/sync', label: 'screen.sync', settings: true },
  { path: '/settings/data', label: 'screen.data', settings: true },
  { path: '/settings/license', label: 'screen.license', settings: true },
];

function NavLink({ path, active, onChoose, children }: { path: string; active: string; onChoose: (path: string) => void; children: ComponentChildren }) {
  return (
    <a href={`#${path}`} aria-current={active === path ? 'page' : undefined} onClick={() => onChoose(path)}>
      {children}
    </a>
  );
}

function NowPill() {
  const { snapshot, statusAt } = useAppState();
  const t = useT();
  const status = snapshot?.status;
  useTick(1000, Boolean(status?.isTracking && !status.isOnBreak));
  if (!status?.currentActivity) return <p class="now-pill idle">{t('nav.notTracking')}</p>;
  return (
    <p class="now-pill">
      <span class={`swatch ${colorClass(status.currentActivity.activityID)}`} aria-hidden="true" />
      <span class="now-pill-name">{status.currentActivity.activityName}</span>
      <span class="now-pill-time">{status.isOnBreak ? t('nav.onBreak') : stopwatch(liveSeconds(status.sessionSeconds ?? 0, status, statusAt))}</span>
    </p>
  );
}

/** The sidebar (wide) or top bar with its menu (narrow); `path` is the screen shown, `screenName` its name in the bar. */
export function Sidebar({ path, screenName }: { path: string; screenName: string }) {
  const { snapshot } = useAppState();
  const t = useT();
  const [open, setOpen] = useState(false);
  const sidebarRef = useRef<HTMLElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  const closeToButton = (): void => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  // A layout effect: listening from the moment the menu shows, not after the next paint, so a
  // quick Escape or Tab is never missed.
  useLayoutEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      closeToButton();
    };
    // Tab past the menu's last item (or a focus moved by a script) closes it: an open menu over
    // the content the focus is in would hide it.
    const onFocusIn = (event: FocusEvent): void => {
      if (!sidebarRef.current?.contains(event.target as Node)) setOpen(false);
    };
    // Widening the window past the breakpoint leaves no menu to close later.
    const narrow = window.matchMedia(NARROW);
    const onWidth = (): void => {
      if (!narrow.matches) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('focusin', onFocusIn);
    narrow.addEventListener('change', onWidth);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('focusin', onFocusIn);
      narrow.removeEventListener('change', onWidth);
    };
  }, [open]);

  const choose = (chosen: string): void => {
    if (!open) return;
    // Another screen: App moves the focus to its heading. The same one: nothing changes, so back to Menu.
    if (chosen === path) closeToButton();
    else setOpen(false);
  };

  const link = ({ path: to, label }: (typeof LINKS)[number]) => (
    <NavLink key={to} path={to} active={path} onChoose={choose}>
      {t(label)}
    </NavLink>
  );

  return (
    <>
      <aside class="sidebar" ref={sidebarRef}>
        <div class="sidebar-bar">
          <p class="brand">
            <span class="brand-mark" aria-hidden="true" />
            Tock
          </p>
          <p class="bar-screen" data-testid="bar-screen">
            {path.startsWith('/settings/') ? t('nav.settingsScreen', { screen: screenName }) : screenName}
          </p>
          <button type="button" class="menu-button" ref={buttonRef} aria-expanded={open} aria-controls="sidebar-menu" onClick={() => setOpen(!open)}>
            <span class="menu-icon" aria-hidden="true" />
            {t('nav.menu')}
          </button>
        </div>
        <div id="sidebar-menu" class={open ? 'sidebar-menu open' : 'sidebar-menu'}>
          <nav aria-label={t('nav.screens')}>
            {LINKS.filter((l) => !l.settings).map(link)}
            <p class="nav-group" id="settings-group">
              {t('nav.settings')}
            </p>
            {LINKS.filter((l) => l.settings).map(link)}
          </nav>
          <div class="sidebar-foot">
            <NowPill />
            {snapshot && (
              <p class="version">
                {t('nav.version', { version: snapshot.appVersion, state: snapshot.listener.state })}
              </p>
            )}
          </div>
        </div>
      </aside>
      {open && (
        // Dims the content under the open menu and takes the tap that closes it, so that tap
        // does not also press whatever lies under it; the focus goes back to Menu.
        // Pointer only: Escape is the keyboard's way to close.
        <div class="menu-scrim" aria-hidden="true" onMouseDown={(event) => event.preventDefault()} onClick={closeToButton} />
      )}
    </>
  );
}
