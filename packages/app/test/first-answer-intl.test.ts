/**
 * Nothing lists ICU's locales before the app's first answer (docs/decisions.md "Nothing of ICU
 * before the listener's first answer", bench/README.md figure 9): the first `Intl` object of a
 * process makes V8 list them, ~12 ms of a ~90 ms cold start and ~6 MB of idle RSS, so every use
 * of `Intl` waits until the listener has answered. The real `tock app` starts as figure 9 starts
 * it — a home whose listener was left on, in English and in German (the setting `language`, and
 * `LANG` for the CLI's catalog as figure 9c) — with an `--import` hook
 * (support/first-answer-intl-hook.ts) that records the first such use with its stack and writes
 * it down as the first answer leaves; the test asks the listener its signed `GET /healthcheck`
 * as soon as the app says it listens. A failure prints the stack: the module that did it.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { faketimeOffset, pinnedOffsetSeconds, tempDirUntilExit } from '@tock/test-support';
import { appEnv, spawnApp, TOCK_BIN, tock } from './support/app-process.ts';
import type { FirstAnswerReport } from './support/first-answer-intl-hook.ts';
import { freePort } from './support/real-app.ts';
import { signed } from './support/signed.ts';

const HOOK = pathToFileURL(fileURLToPath(new URL('./support/first-answer-intl-hook.ts', import.meta.url))).href;

/** `env` with the hook imported first and its report written to `report`. */
function hooked(env: NodeJS.ProcessEnv, report: string): NodeJS.ProcessEnv {
  return { ...env, NODE_OPTIONS: `${env['NODE_OPTIONS'] ?? ''} --import="${HOOK}"`.trim(), TOCK_TEST_FIRST_ANSWER_REPORT: report };
}

/** The report's first use, worded for a failure: what it was and the stack that made it. */
function described(report: FirstAnswerReport): string {
  const use = report.firstUse;
  return use === null ? 'none' : `${use.what} before the first answer (${report.answer.method} ${report.answer.url}), made here:\n${use.stack}`;
}

/**
 * A home as figure 9's: the app started once, its listener turned on at a free port and the
 * setting `language` set, then stopped (so the next start binds the listener again).
 */
async function preparedHome(language: 'en' | 'de'): Promise<{ env: NodeJS.ProcessEnv; port: number; token: string }> {
  const env = appEnv({ TOCK_HOME: tempDirUntilExit('tock-first-answer-') });
  const app = await spawnApp(env);
  try {
    const port = await freePort();
    const on = await tock(['listener', 'on', '--port', String(port)], env);
    assert.equal(on.code, 0, on.stderr);
    const set = await tock(['settings', 'set', 'language', JSON.stringify(language)], env);
    assert.equal(set.code, 0, set.stderr);
    const token = (await tock(['token'], env)).stdout.trim();
    return { env, port, token };
  } finally {
    app.child.kill('SIGTERM');
    await app.exited;
  }
}

/**
 * Starts `tock app --no-open` with the hook, asks its listener `GET /healthcheck` once it says
 * it listens, and returns the hook's report.
 *
 * The app's clock is set a second past a whole minute: the change bus first looks at the day
 * (and so at the zone) at the next whole minute, which a start on the run's own clock might
 * reach before its answer (the run's pinned clock ticks on from noon; scripts/pinned-clock.sh).
 */
async function firstAnswer(home: { env: NodeJS.ProcessEnv; port: number; token: string }, locale: string): Promise<FirstAnswerReport> {
  assert.ok(home.env['TOCK_TEST_CLOCK_OFFSET'] !== undefined, 'runs on the pinned clock: start it with scripts/node-test.sh');
  const report = join(home.env['TOCK_HOME'] as string, `first-answer-${locale}.json`);
  const intoMinute = (Date.now() % 60_000) / 1000;
  const shift = Math.ceil(60 - intoMinute) + 1;
  const env = { ...hooked(home.env, report), LANG: locale, FAKETIME: faketimeOffset(pinnedOffsetSeconds() + shift) };
  const child = spawn(process.execPath, [TOCK_BIN, 'app', '--no-open'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let output = '';
  try {
    // The line the app prints once everything listens: `listener: …` (`Listener: …` in German).
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer): void => {
        output += chunk.toString();
        if (/^listener: /im.test(output)) resolve();
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      void exited.then((code) => reject(new Error(`tock app exited (${code}) before it listened: ${output}`)));
    });
    const answer = await signed(home.port, home.token, { target: '/healthcheck', timestamp: Math.floor(Date.now() / 1000) + shift });
    assert.equal(answer.status, 200, `the listener's first answer: ${output}`);
    assert.ok(existsSync(report), 'the hook wrote its report as the answer left');
    return JSON.parse(readFileSync(report, 'utf8')) as FirstAnswerReport;
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  }
}

describe('no Intl before the first answer (docs/decisions.md "Nothing of ICU before the listener\'s first answer")', () => {
  for (const [language, locale] of [
    ['en', 'C.UTF-8'],
    ['de', 'de_DE.UTF-8'],
  ] as const) {
    it(`an app in ${language === 'en' ? 'English' : 'German'} lists no ICU locales before its listener's first answer`, async () => {
      const report = await firstAnswer(await preparedHome(language), locale);
      assert.deepEqual(report.answer, { method: 'GET', url: '/healthcheck', status: 200 }, 'the first answer any server of the app sent is the listener\'s');
      if (report.firstUse !== null) assert.fail(described(report));
    });
  }
});

/**
 * Runs `before` (a module's statements) in a fresh Node with the hook, then a server that answers
 * one request and runs `after` once it answered; returns the report.
 */
function hookedNode(before: string, report: string, after = ''): Promise<FirstAnswerReport> {
  const script = `
    import { createServer, get } from 'node:http';
    ${before};
    const server = createServer((req, res) => { res.end('ok'); ${after}; }).listen(0, '127.0.0.1', () => {
      get({ host: '127.0.0.1', port: server.address().port, path: '/first' }, (res) => { res.resume(); res.on('end', () => server.close()); });
    });`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { env: hooked(process.env, report), timeout: 20_000 }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(JSON.parse(readFileSync(report, 'utf8')) as FirstAnswerReport);
    });
  });
}

describe('the first-answer Intl hook', () => {
  const dir = tempDirUntilExit('tock-first-answer-hook-');
  const uses: [string, string][] = [
    ['new Intl.DateTimeFormat', "new Intl.DateTimeFormat('en')"],
    ['Intl.DateTimeFormat()', 'Intl.DateTimeFormat().resolvedOptions().timeZone'],
    ['new Intl.NumberFormat', "new Intl.NumberFormat('de')"],
    ['Intl.NumberFormat.supportedLocalesOf', "Intl.NumberFormat.supportedLocalesOf(['de'])"],
    ['new Intl.Collator', 'new Intl.Collator()'],
    ['new Intl.RelativeTimeFormat', 'new Intl.RelativeTimeFormat()'],
    ['new Intl.ListFormat', 'new Intl.ListFormat()'],
    ['new Intl.DisplayNames', "new Intl.DisplayNames('en', { type: 'region' })"],
    ['new Intl.Segmenter', 'new Intl.Segmenter()'],
    ['new Intl.DurationFormat', 'new Intl.DurationFormat()'],
    ['Date.prototype.toLocaleString', 'new Date(0).toLocaleString()'],
    ['Date.prototype.toLocaleDateString', 'new Date(0).toLocaleDateString()'],
    ['Date.prototype.toLocaleTimeString', 'new Date(0).toLocaleTimeString()'],
    ['Number.prototype.toLocaleString', '(1234.5).toLocaleString()'],
    ['BigInt.prototype.toLocaleString', '(12n).toLocaleString()'],
    ['String.prototype.localeCompare', "'a'.localeCompare('b')"],
  ];
  for (const [what, code] of uses) {
    it(`records ${what} before the first answer, with the stack that made it`, async () => {
      const report = await hookedNode(`function madeHere() { return ${code}; } madeHere()`, join(dir, `${what}.json`));
      assert.equal(report.firstUse?.what, what);
      assert.match(report.firstUse?.stack ?? '', /at madeHere /);
      assert.deepEqual(report.answer, { method: 'GET', url: '/first', status: 200 });
    });
  }

  it('records nothing after the first answer, nor what lists no locales (Intl.Locale, Intl.PluralRules)', async () => {
    const before = `new Intl.Locale('de'); new Intl.PluralRules('de').select(2)`;
    const report = await hookedNode(before, join(dir, 'none.json'), 'new Intl.DateTimeFormat().format(0)');
    assert.equal(report.firstUse, null, described(report));
  });
});
