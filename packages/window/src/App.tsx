/**
 * The window's frame: the navigation (components/Sidebar.tsx: a sidebar, or a top bar with a menu on a
 * narrow window) with the screens (Today, History, Reports, Activities, Clients, Invoices, Settings ›
 * Integrations, Settings › Desktop, Settings › Capture, Settings › Calendar, Settings › Business, Settings › Sync, Settings ›
 * Data, Settings › License) and what runs now, the idle question and the branch prompt above every screen, and a banner
 * when the app stops answering. Screens are addressed by the URL fragment (`#/history`), so
 * reload and back/forward work without the server knowing any route but `/`.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { type MessageKey, useT } from './i18n/index.ts';
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
import type { SessionProblem } from './session.ts';
import { useAppState } from './state.ts';

const SCREENS = {
  '/today': { title: 'screen.today', view: Today },
  '/history': { title: 'screen.history', view: History },
  '/reports': { title: 'screen.reports', view: Reports },
  '/activities': { title: 'screen.activities', view: Activities },
  '/clients': { title: 'screen.clients', view: Clients },
  '/invoices': { title: 'screen.invoices', view: Invoices },
  '/settings/integrations': { title: 'screen.integrations', view: Integrations },
  '/settings/desktop': { title: 'screen.desktop', view: Desktop },
  '/settings/capture': { title: 'screen.capture', view: Capture },
  '/settings/calendar': { title: 'screen.calendar', view: Calendar },
  '/settings/business': { title: 'screen.business', view: Business },
  '/settings/sync': { title: 'screen.sync', view: Sync },
  '/settings/data': { title: 'screen.data', view: Data },
  '/settings/license': { title: 'screen.license', view: License },
} as const satisfies Record<string, { title: MessageKey; view: unknown }>;
type Path = keyof typeof SCREENS;

function currentPath(): Path {
  const p = location.hash.replace(/^#/, '');
  return p in SCREENS ? (p as Path) : '/today';
}

export function App() {
  const [path, setPath] = useState<Path>(currentPath());
  const { snapshot, connection, sessionProblem, loadError } = useAppState();
  const t = useT();
  const title = t(SCREENS[path].title);
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
    // Move focus to the new screen's heading, so keyboard and screen reader users land there.
    if (first.current) {
      first.current = false;
      return;
    }
    mainRef.current?.querySelector<HTMLElement>('h1')?.focus();
  }, [path]);
  useEffect(() => {
    document.title = t('app.documentTitle', { screen: title });
  }, [title]);

  const Screen = SCREENS[path].view;
  const prompts = snapshot?.prompts ?? [];
  const prompt = prompts[0];
  const idleQuestion = snapshot?.desktop?.idleQuestion ?? null;

  // A tab without a session knows nothing of the app: it shows only how to get a window —
  // no navigation, no tracking state (docs/ui.md "Security decisions").
  if (connection === 'no-session' || connection === 'expired') {
    return (
      <main id="main" class="no-session">
        <p class="banner" role="alert" data-testid="no-session">
          {withCode(sessionProblem === null ? t('app.getWindow') : sessionProblem.code === 'refused' ? sessionProblem.line : t(SESSION_PROBLEMS[sessionProblem.code]))}
        </p>
      </main>
    );
  }

  return (
    <div class="layout">
      <a class="skip" href="#main">
        {t('app.skip')}
      </a>
      <Sidebar path={path} screenName={title} />
      <main id="main" ref={mainRef} tabIndex={-1}>
        {connection === 'lost' && (
          <p class="banner" role="alert">
            {t('app.lost')}
          </p>
        )}
        {loadError && !snapshot && (
          <p class="banner" role="alert">
            {loadError}
          </p>
        )}
        {idleQuestion && <IdleQuestion key={idleQuestion.questionID} question={idleQuestion} />}
        {prompt && <BranchPrompt key={prompt.promptID} prompt={prompt} waiting={prompts.length - 1} />}
        <div aria-live="polite" class="visually-hidden">
          {prompt ? t('app.branchLive', { branch: prompt.branch }) : ''}
        </div>
        <div aria-live="polite" class="visually-hidden">
          {idleQuestion ? t('app.idleLive', { activity: idleQuestion.activityName }) : ''}
        </div>
        {snapshot ? <Screen /> : !loadError && <p class="muted loading">{t('app.loading')}</p>}
      </main>
    </div>
  );
}

/** The words of each reason a tab has no session (session.ts); `no_session` is `app.getWindow`. */
const SESSION_PROBLEMS: Readonly<Record<Exclude<SessionProblem['code'], 'refused'>, MessageKey>> = {
  no_session: 'app.getWindow',
  not_answering: 'app.notAnswering',
  launch_code_used: 'app.launchUsed',
  launch_code_expired: 'app.launchExpired',
  launch_code_unknown: 'app.launchUnknown',
  forbidden_site: 'app.launchForbidden',
};

/** A one-line message with its `commands` set as code. */
function withCode(message: string) {
  return message.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part));
}
