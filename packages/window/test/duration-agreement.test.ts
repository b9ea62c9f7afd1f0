/**
 * A duration in French or Spanish has no one gender or number to agree with: `45 min` is
 * plural feminine in French and masculine in Spanish (minutos), `1 h` singular, `1 h 5 min`
 * both. So the window never hangs a participle on one (`45 min registradas`, `1 h suivies`,
 * `0,75 heures`): it says `de suivi`, `de tiempo registrado`, and hours as `h`.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { es, fr } from './testing.ts';

it('no French or Spanish message makes a participle agree with a duration', () => {
  const agreeing = /\{duration\}\s+(suivie?s?|registrad[oa]s?|comptée?s?)(?![\p{L}])/u;
  const found = [
    ...Object.entries(fr as Record<string, string>).filter(([, m]) => agreeing.test(m)).map(([k]) => `fr ${k}`),
    ...Object.entries(es as Record<string, string>).filter(([, m]) => agreeing.test(m)).map(([k]) => `es ${k}`),
  ];
  assert.deepEqual(found, []);
  // A report's decimal hours (`0,75`): below two French says heure, so the unit is `h`.
  assert.match((fr as Record<string, string>)['report.kind'] ?? '', /\{hours\}\u00a0h$/u);
});
