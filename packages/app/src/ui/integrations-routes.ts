/**
 * The window's routes for Settings › Integrations and License (docs/ui.md "Integrations"): the
 * listener's switch and port, its request list, whether a token exists, revealing and rotating
 * it, the credential store, the license. The same app services as `tock listener` and `tock
 * license`; a refused port or key is their problem, shown at its field.
 */
import { Problem } from '@tock/protocol';
import type { CredentialStoreKind } from '../credentials.ts';
import { checkListenerPort } from '../listener-control.ts';
import { route, type Route } from './route.ts';
import { tokenView, type WindowViewDeps } from './window-views.ts';

/** What the integration routes use of the app: the listener, the token, the license, the request list, the credential store switch. */
export interface IntegrationRouteDeps extends Pick<WindowViewDeps, 'listener' | 'tokens' | 'license' | 'requests'> {
  setCredentialStore(kind: CredentialStoreKind): { renewed: boolean };
}

const NO_TOKEN = 'there is no token yet: turn the listener on to create one';

/** The integrations and license routes of the window's API. */
export function integrationsRoutes(services: IntegrationRouteDeps): Route[] {
  const { listener, tokens, license } = services;
  return [
    route('GET /api/listener', () => listener.status()),
    route(
      'POST /api/listener',
      async ({ body }) => {
        const port = body.port === undefined || body.port === null ? undefined : checkListenerPort(body.port);
        if (body.enabled === true) return listener.enable(port);
        if (body.enabled === false) {
          if (port !== undefined) await listener.setPort(port);
          return listener.disable();
        }
        if (port !== undefined) return listener.setPort(port);
        return listener.status();
      },
      ['listener', 'token'],
    ),
    route('GET /api/requests', () => services.requests()),
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
    route('GET /api/license', () => license.info()),
    route('POST /api/license/activate', ({ body }) => license.activate(body.key), ['license']),
  ];
}
