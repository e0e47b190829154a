import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, Route, Switch, useLocation, type StringRouteParams } from 'wouter';
import { ErrorNotice } from './components/ui';
import { AgentPage } from './features/agents/AgentPage';
import { AgentsPage } from './features/agents/AgentsPage';
import { BillingPage } from './features/billing/BillingPage';
import { DocumentPage } from './features/knowledge/DocumentPage';
import { KnowledgePage } from './features/knowledge/KnowledgePage';
import { KeysPage } from './features/keys/KeysPage';
import { ModelsPage } from './features/models/ModelsPage';
import { HomePage } from './features/overview/HomePage';
import { PlaygroundPage } from './features/playground/PlaygroundPage';
import { RunPage } from './features/runs/RunPage';
import { RunsPage } from './features/runs/RunsPage';
import { SchedulePage } from './features/schedules/SchedulePage';
import { SchedulesPage } from './features/schedules/SchedulesPage';
import { SignInPage } from './features/sign-in/SignInPage';
import { VideosPage } from './features/videos/VideosPage';
import { EndpointPage } from './features/webhooks/EndpointPage';
import { WebhooksPage } from './features/webhooks/WebhooksPage';
import type { Scope } from './scopes';
import { SessionProvider, useSession, useSignIn } from './session';

/** The console's sections, each shown only to a key with the scope it needs. */
const SECTIONS: Array<{ path: string; label: string; scope: Scope }> = [
  { path: '/runs', label: 'Runs', scope: 'runs:read' },
  { path: '/playground', label: 'Playground', scope: 'runs:create' },
  { path: '/schedules', label: 'Schedules', scope: 'runs:read' },
  { path: '/agents', label: 'Agents', scope: 'agents:manage' },
  { path: '/knowledge', label: 'Knowledge', scope: 'kb:read' },
  { path: '/videos', label: 'Videos', scope: 'video:read' },
  { path: '/webhooks', label: 'Webhooks', scope: 'webhooks:manage' },
  { path: '/keys', label: 'API keys', scope: 'keys:manage' },
  { path: '/models', label: 'Models', scope: '*' },
  { path: '/billing', label: 'Usage & billing', scope: 'tokens:read' },
];

export function App() {
  const { apiKey, current, refusal, signIn, signOut } = useSignIn();
  if (!apiKey || current.isError) return <SignInPage onSignIn={signIn} error={refusal ?? current.error} />;
  if (!current.data) {
    return (
      <main id="main" className="centered">
        <p role="status">Checking the API key…</p>
      </main>
    );
  }
  return (
    <SessionProvider keyView={current.data} signOut={signOut}>
      <Shell>
        <Switch>
          <Route path="/" component={HomePage} />
          <GuardedRoute path="/runs" scope="runs:read" page={() => <RunsPage />} />
          <GuardedRoute path="/runs/:runId" scope="runs:read" page={(params) => <RunPage runId={params.runId} />} />
          <GuardedRoute path="/schedules" scope="runs:read" page={() => <SchedulesPage />} />
          <GuardedRoute path="/schedules/:scheduleId" scope="runs:read" page={(params) => <SchedulePage scheduleId={params.scheduleId} />} />
          <GuardedRoute
            path="/playground/:conversationId?"
            scope="runs:create"
            page={(params) => <PlaygroundPage conversationId={params.conversationId} />}
          />
          <GuardedRoute path="/agents" scope="agents:manage" page={() => <AgentsPage />} />
          <GuardedRoute path="/agents/:agentId" scope="agents:manage" page={(params) => <AgentPage agentId={params.agentId} />} />
          <GuardedRoute path="/billing" scope="tokens:read" page={() => <BillingPage />} />
          <GuardedRoute path="/knowledge" scope="kb:read" page={() => <KnowledgePage />} />
          <GuardedRoute path="/knowledge/:docId" scope="kb:read" page={(params) => <DocumentPage docId={params.docId} />} />
          <GuardedRoute path="/videos" scope="video:read" page={() => <VideosPage />} />
          <GuardedRoute path="/webhooks" scope="webhooks:manage" page={() => <WebhooksPage />} />
          <GuardedRoute path="/webhooks/:endpointId" scope="webhooks:manage" page={(params) => <EndpointPage endpointId={params.endpointId} />} />
          <GuardedRoute path="/keys" scope="keys:manage" page={() => <KeysPage />} />
          <GuardedRoute path="/models" scope="*" page={() => <ModelsPage />} />
          <Route>{() => <NotFound />}</Route>
        </Switch>
      </Shell>
    </SessionProvider>
  );
}

function Shell({ children }: { children: ReactNode }) {
  const { key, can, signOut } = useSession();
  const [location] = useLocation();
  const isCurrent = (path: string) => location === path || location.startsWith(`${path}/`);
  const section = SECTIONS.find((candidate) => isCurrent(candidate.path));
  // After a client-side navigation, focus goes to the new page (as after a page load) and the title names it;
  // not when a page only put what it shows in its address (navigating with the state {keepFocus: true}).
  const firstRender = useRef(true);
  // The menu (on a narrow screen) is open on the page where it was opened: navigating closes it.
  const [menuOpenAt, setMenuOpenAt] = useState<string | null>(null);
  const menuOpen = menuOpenAt === location;
  useEffect(() => {
    document.title = `${section?.label ?? (location === '/' ? 'Overview' : 'Page not found')} · Pylon console`;
    if (firstRender.current) firstRender.current = false;
    else if (!(window.history.state as { keepFocus?: boolean } | null)?.keepFocus) document.getElementById('main')?.focus();
  }, [location, section]);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className={menuOpen ? 'top open' : 'top'}>
        <Link href="/" className="brand">
          Pylon console
        </Link>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="sections"
          onClick={() => setMenuOpenAt(menuOpen ? null : location)}
        >
          Menu
        </button>
        <nav aria-label="Sections" id="sections">
          <ul>
            <li>
              <Link href="/" aria-current={location === '/' ? 'page' : undefined}>
                Overview
              </Link>
            </li>
            {SECTIONS.filter((section) => can(section.scope)).map((section) => (
              <li key={section.path}>
                <Link href={section.path} aria-current={isCurrent(section.path) ? 'page' : undefined}>
                  {section.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="who">
          <span className="key-name">
            Key <code>{key.hint}</code> ({key.name})
          </span>
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}

/**
 * A route to a page that needs a scope (a `Switch` matches it by its `path` prop). For a string path, wouter's params are
 * `StringRouteParams<Path>`; the cast only spells that out where TypeScript cannot resolve wouter's conditional type for a generic path.
 */
function GuardedRoute<Path extends string>({
  path,
  scope,
  page,
}: {
  path: Path;
  scope: Scope;
  page: (params: StringRouteParams<Path>) => ReactNode;
}) {
  return <Route path={path}>{(params) => <Guarded scope={scope}>{page(params as StringRouteParams<Path>)}</Guarded>}</Route>;
}

function Guarded({ scope, children }: { scope: Scope; children: ReactNode }) {
  const { can } = useSession();
  if (can(scope)) return <>{children}</>;
  return (
    <>
      <h1>Not available with this key</h1>
      <ErrorNotice error={new Error(`This page needs the ${scope} scope, which this API key does not have. Sign in with a key that has it.`)} />
      <p>
        <Link href="/">Back to the overview</Link>
      </p>
    </>
  );
}

function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <p>
        The console has no page at this address. <Link href="/">Go to the overview</Link>.
      </p>
    </>
  );
}
