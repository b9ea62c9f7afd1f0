/**
 * The window's frame: the navigation (components/Sidebar.tsx: a sidebar, or a top bar with a menu on a
 * narrow window) with the screens (Today, History, Reports, Activities, Clients, Invoices, Settings ›
 * Integrations, Settings › Desktop, Settings › Capture, Settings › Calendar, Settings › Business, Settings › Sync, Settings ›
 * Data, Settings › License) and what runs now, the idle question and the branch prompt above every screen, and a banner
 * when the app stops answering. Screens are addressed by the URL fragment (`#/history`), so
 * reload and back/forward work without the server knowing any route but `/`.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { BranchPrompt } from './components/BranchPrompt.tsx';
import { IdleQuestion } from './components/IdleQuestion.tsx';
import { Sidebar } from './components/Sidebar.tsx';
import { Calendar } from './screens/Calendar.tsx';
import { Capture } from './screens/Capture.tsx';
import { Business } from './screens/ledger/Business.tsx';
import { Clients } from './screens/ledger/Clients.tsx';
import { Invoices } from './screens/ledger/Invoices.tsx';
import { Desktop } from './screens/Desktop.tsx';
import { Sync } from './screens/Sync.tsx';
import { Data } from './screens/Data.tsx';
import { Activities } from './screens/Activities.tsx';
import { History } from './screens/History.tsx';
import { Integrations } from './screens/Integrations.tsx';
import { License } from './screens/License.tsx';
import { Reports } from './screens/Reports.tsx';
import { Today } from './screens/Today.tsx';
import { useAppState } from './state.ts';

const SCREENS = {
  '/today': { title: 'Today', view: Today },
  '/history': { title: 'History', view: History },
  '/reports': { title: 'Reports', view: Reports },
  '/activities': { title: 'Activities', view: Activities },
  '/clients': { title: 'Clients', view: Clients },
  '/invoices': { title: 'Invoices', view: Invoices },
  '/settings/integrations': { title: 'Integrations', view: Integrations },
  '/settings/desktop': { title: 'Desktop', view: Desktop },
  '/settings/capture': { title: 'Capture', view: Capture },
  '/settings/calendar': { title: 'Calendar', view: Calendar },
  '/settings/business': { title: 'Business', view: Business },
  '/settings/sync': { title: 'Sync', view: Sync },
  '/settings/data': { title: 'Data', view: Data },
  '/settings/license': { title: 'License', view: License },
} as const;
type Path = keyof typeof SCREENS;

function currentPath(): Path {
  const p = location.hash.replace(/^#/, '');
  return p in SCREENS ? (p as Path) : '/today';
}

export function App() {
  const [path, setPath] = useState<Path>(currentPath());
  const { snapshot, connection, sessionProblem, loadError } = useAppState();
  const mainRef = useRef<HTMLElement>(null);
  const first = useRef(true);

  useEffect(() => {
    const onHash = (): void => setPath(currentPath());
    window.addEventListener('hashchange', onHash);
    // The fragment may have changed between the first render and this effect.
    onHash();
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    document.title = `${SCREENS[path].title} · Tock`;
    // Move focus to the new screen's heading, so keyboard and screen reader users land there.
    if (first.current) {
      first.current = false;
      return;
    }
    mainRef.current?.querySelector<HTMLElement>('h1')?.focus();
  }, [path]);

  const Screen = SCREENS[path].view;
  const prompts = snapshot?.prompts ?? [];
  const prompt = prompts[0];
  const idleQuestion = snapshot?.desktop?.idleQuestion ?? null;

  return (
    <div class="layout">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <Sidebar path={path} screenName={SCREENS[path].title} />
      <main id="main" ref={mainRef} tabIndex={-1}>
        {connection === 'lost' && (
          <p class="banner" role="alert">
            Tock is not answering. Is the app still running? This window reconnects on its own.
          </p>
        )}
        {connection === 'expired' && (
          <p class="banner" role="alert">
            Tock was restarted: run <code>tock open</code> (or open the address it printed, <code>open: …</code>, within 5 minutes) to continue.
          </p>
        )}
        {connection === 'no-session' && (
          <p class="banner" role="alert" data-testid="no-session">
            {withCode(sessionProblem ?? 'This tab has no Tock session. Run `tock open` to open a Tock window.')}
          </p>
        )}
        {loadError && !snapshot && connection !== 'expired' && connection !== 'no-session' && (
          <p class="banner" role="alert">
            {loadError}
          </p>
        )}
        {idleQuestion && <IdleQuestion key={idleQuestion.questionID} question={idleQuestion} />}
        {prompt && <BranchPrompt key={prompt.promptID} prompt={prompt} waiting={prompts.length - 1} />}
        <div aria-live="polite" class="visually-hidden">
          {prompt ? `Branch switched to ${prompt.branch}. Choose what to track.` : ''}
        </div>
        <div aria-live="polite" class="visually-hidden">
          {idleQuestion ? `Welcome back. ${idleQuestion.activityName} kept running while you were away: keep or discard that time?` : ''}
        </div>
        {snapshot ? <Screen /> : !loadError && connection !== 'no-session' && <p class="muted loading">Loading…</p>}
      </main>
    </div>
  );
}

/** A one-line message with its `commands` set as code. */
function withCode(message: string) {
  return message.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part));
}
