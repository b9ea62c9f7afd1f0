/**
 * The admin channel: how `tock listener on`, `tock token` and the other admin commands
 * reach the running app. HTTP over a Unix socket in the owner-only home directory (mode
 * 0600 on the socket, 0700 on the directory), so only the user who runs Tock can open it;
 * on Windows a named pipe. No TCP port, nothing a web page can reach.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { chmodSync, existsSync, rmSync } from 'node:fs';

/** One admin operation: its input is the parsed JSON body (or {}), its output any JSON value. */
export type AdminHandler = (input: Record<string, unknown>) => unknown;

/** A failure an admin command reports to the user as one line, with the CLI's exit status 1. */
export class AdminError extends Error {
  override name = 'AdminError' as const;
}

const MAX_ADMIN_BODY = 64 * 1024;

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_ADMIN_BODY) throw new AdminError('admin request too large');
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return {};
  const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new AdminError('admin request must be a JSON object');
  return value as Record<string, unknown>;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Serves `routes` (keys like `POST /listener/on`) on the socket at `path`. */
export async function startAdminServer(path: string, routes: Record<string, AdminHandler>): Promise<Server> {
  if (process.platform !== 'win32' && existsSync(path)) {
    if (await adminReachable(path)) throw new AdminError('Tock is already running with this home; use that instance, or stop it first');
    rmSync(path, { force: true }); // left behind by a crash
  }
  const server = createServer(async (req, res) => {
    const handler = routes[`${req.method} ${req.url}`];
    if (!handler) return send(res, 404, { ok: false, error: `unknown admin command ${req.method} ${req.url}` });
    try {
      const result = await handler(await readJson(req));
      send(res, 200, { ok: true, result: result ?? null });
    } catch (error) {
      const known = error instanceof Error && error.name !== 'Error' && error.name !== 'TypeError' && error.name !== 'RangeError';
      const message = known ? (error as Error).message : 'internal error in the app; see its output for details';
      if (!known) console.error('tock: admin command failed:', error instanceof Error ? error.message : String(error));
      send(res, known ? 400 : 500, { ok: false, error: message });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // The home directory is 0700 already; the umask makes the socket 0600 from its creation.
    const oldMask = process.umask(0o177);
    server.listen(path, () => {
      process.umask(oldMask);
      server.off('error', reject);
      resolve();
    });
  });
  if (process.platform !== 'win32') chmodSync(path, 0o600);
  return server;
}

/** True when an app answers on the socket. */
async function adminReachable(path: string): Promise<boolean> {
  try {
    await adminRequest(path, 'GET', '/ping');
    return true;
  } catch {
    return false;
  }
}

/** Thrown by {@link adminRequest} when no app answers on the socket. */
export class AppNotRunningError extends Error {
  override name = 'AppNotRunningError' as const;
}

/** Sends one admin command to the running app and returns its result, or throws AdminError / AppNotRunningError. */
export function adminRequest(path: string, method: 'GET' | 'POST', route: string, input?: Record<string, unknown>): Promise<unknown> {
  const body = input === undefined ? '' : JSON.stringify(input);
  return new Promise((resolve, reject) => {
    const req = request(
      { socketPath: path, method, path: route, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { ok: boolean; result?: unknown; error?: string };
            if (parsed.ok) resolve(parsed.result);
            else reject(new AdminError(parsed.error ?? 'the app refused the command'));
          } catch {
            reject(new AdminError('the app sent an unreadable answer; restart it with `tock app`'));
          }
        });
      },
    );
    req.setTimeout(15_000, () => req.destroy(new Error('timeout')));
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') reject(new AppNotRunningError('Tock is not running'));
      else reject(new AdminError(`could not reach the running app (${error.code ?? error.message})`));
    });
    req.end(body);
  });
}
