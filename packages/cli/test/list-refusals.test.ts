/**
 * The choices a refusal offers are a list in the person's language (`Intl.ListFormat`, a
 * disjunction: `a, b, or c`, `a, b oder c`, `a、b、またはc`), not joined with `, ` by hand:
 * `tock report`'s ranges (and the dates instead), `tock import --format`'s formats, `tock
 * status --format`'s placeholders (docs/i18n.md "Formats"). Each is refused before any request.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadCliMessages } from '../src/i18n/index.ts';
import type { Io } from '../src/io.ts';
import { main } from '../src/main.ts';
import { checkTemplate } from '../src/status-line.ts';

/** Runs `tock …argv` in `locale` without an app; resolves with its one stderr line. */
async function refusal(locale: Parameters<typeof loadCliMessages>[0], ...argv: string[]): Promise<string> {
  const err: string[] = [];
  const io: Io = { out: () => {}, err: (line) => err.push(line), env: { TOCK_HOME: '/nonexistent/tock-home' }, now: () => new Date(0), t: await loadCliMessages(locale) };
  assert.equal(await main(argv, io), 1);
  assert.equal(err.length, 1, err.join('\n'));
  return err[0] as string;
}

describe('the choices a refusal offers', () => {
  it('tock report: the ranges, or the dates instead, as one choice', async () => {
    assert.equal(
      await refusal('en', 'report', 'fortnight'),
      'error: unknown range "fortnight"; use today, yesterday, week, last-week, month, last-month, year, last-year, or --from and --to',
    );
    assert.equal(
      await refusal('de', 'report', 'fortnight'),
      'error: Unbekannter Zeitraum „fortnight“; verwenden Sie today, yesterday, week, last-week, month, last-month, year, last-year oder --from und --to',
    );
    assert.equal(
      await refusal('ja', 'report', 'fortnight'),
      'error: 不明な期間「fortnight」です。today、yesterday、week、last-week、month、last-month、year、last-year、または--from と --to を使ってください',
    );
  });

  it('tock import --format: one of the formats', async () => {
    assert.equal(await refusal('en', 'import', 'x.csv', '--format', 'excel'), 'error: --format takes tock, toggl, timewarrior, or watson, not "excel"');
    assert.match(await refusal('fr', 'import', 'x.csv', '--format', 'excel'), /^error: --format accepte tock, toggl, timewarrior ou watson, pas /);
    assert.equal(await refusal('ja', 'import', 'x.csv', '--format', 'excel'), 'error: --format には tock、toggl、timewarrior、またはwatson を指定してください（「excel」は使えません）');
  });

  it('tock status --format: one of the placeholders', async () => {
    assert.equal(checkTemplate('{activty}', 'es')?.allowed, '{state}, {activity}, {break}, {elapsed}, {today} o {todaySeconds}');
    assert.match(await refusal('ja', 'status', '--format', '{activty}'), /\{today\}、または\{todaySeconds\} を使ってください$/);
  });
});
