/**
 * The window's server: serves the UI on 127.0.0.1, separate from the listener. (First cut:
 * a status page; the full UI replaces it.)
 */
import { createServer } from 'node:http';
import type { AppServices } from '../app.ts';

/** A running UI server. */
export interface UiServer {
  /** The address to open, including the per-launch secret. */
  readonly url: string;
  close(): Promise<void>;
}

/** Options of the UI server. */
export interface UiServerOptions {
  /** Preferred port; 0 or a taken port falls back to a free one. */
  port?: number;
}

/** Starts the UI server for a running app. */
export async function startUiServer(services: AppServices, options: UiServerOptions = {}): Promise<UiServer> {
  const server = createServer((_req, res) => {
    const status = services.tracker.getStatus();
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end(`Tock\nlistener: ${services.listener.status().line}\ntracking: ${status.currentActivity?.activityName ?? 'nothing'}\n`);
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
