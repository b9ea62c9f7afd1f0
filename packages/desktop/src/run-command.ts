/**
 * Runs a short desktop helper (gdbus, xprintidle, ioreg, PowerShell) and returns what it
 * printed. Every run has a deadline: a helper that hangs (a D-Bus peer that never answers, a
 * display that went away) is killed and counts as a failure, so it can never hold up the app.
 */
import { execFile } from 'node:child_process';
import { childEnv } from './child-env.ts';

/** Runs `argv` with a deadline and resolves with its stdout; rejects on failure or timeout. */
export type RunCommand = (
  argv: readonly string[],
  options?: { timeoutMs?: number; env?: NodeJS.ProcessEnv; signal?: AbortSignal },
) => Promise<string>;

/** A helper failed: not installed, exited non-zero, or ran past its deadline. */
export class CommandFailed extends Error {
  override name = 'CommandFailed' as const;
}

/** Default deadline of one helper run. */
const HELPER_TIMEOUT_MS = 3000;

/** The real {@link RunCommand}: `execFile` (no shell), killed with SIGKILL at the deadline. */
export const runCommand: RunCommand = (argv, options = {}) =>
  new Promise((resolve, reject) => {
    const [command, ...args] = argv;
    if (!command) {
      reject(new CommandFailed('no command'));
      return;
    }
    execFile(
      command,
      args,
      {
        timeout: options.timeoutMs ?? HELPER_TIMEOUT_MS,
        killSignal: 'SIGKILL',
        // No secret reaches a helper (docs/security.md): SERVICE_TOKEN and the like stay here.
        env: childEnv(options.env ?? process.env),
        windowsHide: true,
        maxBuffer: 1 << 20,
        // The app stopping kills its helpers rather than waiting for them.
        ...(options.signal ? { signal: options.signal } : {}),
      },
      (error, stdout, stderr) => {
        if (error) {
          const code = (error as NodeJS.ErrnoException).code;
          const why =
            code === 'ENOENT' ? 'not installed' : code === 'ABORT_ERR' ? 'stopped' : error.killed ? 'timed out' : (String(stderr).trim().split('\n')[0] ?? error.message);
          reject(new CommandFailed(`${command}: ${why || error.message}`));
        } else {
          resolve(String(stdout));
        }
      },
    );
  });
