/**
 * Test support: the real WakaTime client — the pure-Python `wakatime` 13.1.0 from PyPI, in
 * .venv-wakatime, made by scripts/wakatime-venv.sh (docs/integrations.md "WakaTime plugins").
 */
import { execFile, execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));

/** The `wakatime` command of the venv (built on first use); throws one line saying what to install. */
export function wakatimeCommand(): string {
  try {
    const python = execFileSync('bash', [join(REPO, 'scripts/wakatime-venv.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000 }).trim();
    return join(dirname(python), 'wakatime');
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? error);
    throw new Error(`the real WakaTime client could not be set up: ${stderr.trim().split('\n').at(-1)}`);
  }
}

/** Runs `wakatime …` with `home` as its HOME and WAKATIME_HOME and `stdin` as its input; resolves with its exit code and output. */
export function runWakatime(command: string, args: string[], home: string, stdin = ''): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(command, args, { env: { PATH: process.env.PATH, HOME: home, WAKATIME_HOME: home, TZ: process.env.TZ }, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr }),
    );
    child.stdin?.end(stdin);
  });
}
