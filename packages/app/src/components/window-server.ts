/**
 * The window's server as a component (docs/ui.md), and the two ways in that other parts hold
 * before it starts: the tray's *Open* and `tock open` (docs/ui.md "Security decisions": both
 * through launch files). It starts after the admin socket, so it is reached through `late`.
 */
import { ruleLine } from '@tock/protocol';
import { AdminError } from '../admin.ts';
import type { WindowOpener } from '../admin/desktop-routes.ts';
import type { Component } from '../components.ts';
import type { AppServices } from '../services.ts';
import { openInBrowser, type LaunchFiles } from '../ui/open.ts';
import { startUiServer, type UiServer } from '../ui/server.ts';
import type { LateParts } from './late-parts.ts';

/** The window server, once started; bound by {@link windowServerComponent}. */
export type LateWindow = LateParts<{ window: UiServer }>;

/** What the window server is started with. */
export interface WindowServerDeps {
  services: AppServices;
  /** The port asked for: 0 or a taken one falls back to a free one. */
  port: number;
  /** What launch codes' ages are measured on. */
  clock: () => number;
  /** Told the port it listens on. */
  listening: (port: number) => void;
  late: LateWindow;
}

/** Starts the window's server and binds it into `late`; stops it on stop. */
export function windowServerComponent({ services, port, clock, listening, late }: WindowServerDeps): Component {
  let ui: UiServer | undefined;
  return {
    name: 'window server',
    start: async () => {
      ui = await startUiServer(services, { port, clock });
      late.bind('window', ui);
      listening(ui.port);
    },
    stop: () => ui?.close(),
  };
}

/** Opens a window on `screen` in the browser, through a launch file; nothing while the server is starting. */
export function windowOpenerForTray(late: LateWindow, launchFiles: LaunchFiles, env: NodeJS.ProcessEnv): (screen?: string) => void {
  return (screen) => {
    const ui = late.get('window');
    if (ui) openInBrowser(launchFiles.write(`${ui.launchUrl()}${screen ? `#${screen}` : ''}`), env);
  };
}

/** What `tock open` asks for; refused while the window is still starting. */
export function windowOpenerForAdmin(late: LateWindow, launchFiles: LaunchFiles): () => WindowOpener {
  return () => {
    const ui = late.get('window');
    if (!ui) throw new AdminError(...ruleLine('window', { rule: 'windowStarting' }));
    return { origin: ui.origin, launchUrl: () => ui.launchUrl(), launchFile: () => launchFiles.write(ui.launchUrl()) };
  };
}
