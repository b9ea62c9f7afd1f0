/**
 * Figure 6: `TockClient.getStatus()` calls per second against a hand-signed `fetch` loop
 * (node:crypto HMAC, fresh random nonce, JSON parsed, response signature not checked), one
 * caller each, against the same app. The client's extra work — signing, the
 * response-signature check, error mapping — is what the ratio measures.
 */

import { benchPath, runJson, startAppServer } from '../lib/children.ts';
import { pairedFigure, pairedRounds, type BenchConfig, type FigureResult, type Target } from '../lib/figure.ts';

const BASE = {
  id: 'ts-client-rps',
  title: 'TockClient getStatus() calls/s (1 caller)',
  unit: 'calls/s',
  baselineLabel: 'hand-signed fetch loop',
  target: { kind: 'min', ratio: 0.9 } as Target,
};

export async function tsClientFigure(config: BenchConfig): Promise<FigureResult> {
  const app = await startAppServer({ seed: { today: true } }, { execArgv: config.serverArgs('ts-client') });
  try {
    const loop = async (mode: 'client' | 'fetch') => {
      const r = await runJson<{ rps: number; calls: number }>(process.execPath, [
        benchPath('load/ts-client-loop.ts'),
        JSON.stringify({ mode, port: app.ready.port, token: app.ready.token, warmupMs: config.warmupMs, durationMs: config.clientMs }),
      ]);
      return { value: r.rps, detail: r as unknown };
    };
    return pairedFigure(BASE, await pairedRounds(config.rounds, () => loop('fetch'), () => loop('client')));
  } finally {
    await app.stop();
  }
}
