/**
 * The window's routes for Settings › Integrations and License (docs/ui.md "Integrations"): the
 * listener's switch and port, its request list, whether a token exists, revealing and rotating
 * it, the credential store, the license. The same app services as `tock listener` and `tock
 * license`; a refused port or key is their problem, shown at its field.
 */
import { Problem } from '@tock/protocol';
import type { CredentialStoreKind } from '../credentials.ts';
import { appUseCases, type AppUseCases } from '../use-cases/app.ts';
import { route, type Route } from './route.ts';
import { tokenView, type WindowViewDeps } from './window-views.ts';

/** What the integration routes use of the app: the listener, the token, the license, the request list, the credential store switch. */
export interface IntegrationRouteDeps extends Pick<WindowViewDeps, 'listener' | 'tokens' | 'license' | 'requests'> {
  setCredentialStore(kind: CredentialStoreKind): { renewed: boolean };
}

const NO_TOKEN = 'there is no token yet: turn the listener on to create one';

/** The integrations and license routes of the window's API: the listener and license are path bindings over the app's use cases (use-cases/app.ts). */
export function integrationsRoutes(services: IntegrationRouteDeps, cases: AppUseCases = appUseCases(services)): Route[] {
  const { tokens } = services;
  return [
    route('GET /api/listener', () => cases.listenerStatus()),
    route('POST /api/listener', ({ body }) => cases.switchListener(body), ['listener', 'token']),
    route('GET /api/requests', () => cases.requests()),
    route('GET /api/token', () => tokenView(services)),
    // POST, not GET: only an explicit same-origin request (Origin checked) gets the token.
    route('POST /api/token/reveal', () => {
      const token = tokens.read();
      if (!token) throw new Problem('no_token', NO_TOKEN);
      return { token };
    }),
    route(
      'POST /api/token/rotate',
      () => {
        if (!tokens.read()) throw new Problem('no_token', NO_TOKEN);
        tokens.rotate();
        return tokenView(services);
      },
      ['token'],
    ),
    route(
      'POST /api/credential-store',
      // Works whatever the old store's state: `renewed` says the token had to be made anew (tokens.ts moveTo).
      ({ body }) => ({ ...tokenView(services), ...services.setCredentialStore(body.kind) }),
      ['listener', 'token'],
    ),
    route('GET /api/license', () => cases.license()),
    route('POST /api/license/activate', ({ body }) => cases.activateLicense(body), ['license']),
  ];
}
