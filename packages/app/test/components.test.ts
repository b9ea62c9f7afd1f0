import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Component, startComponents } from '../src/components.ts';

/** Components that write what happens to them into `log`; `failing` throws from its start. */
function components(log: string[], names: string[], failing?: string): Component[] {
  return names.map((name) => ({
    name,
    start: async () => {
      log.push(`start ${name}`);
      if (name === failing) throw new Error(`${name} cannot start`);
    },
    stop: async () => {
      log.push(`stop ${name}`);
    },
  }));
}

describe('app components', () => {
  it('starts in order and stops in reverse, each stop once however often stop() is called', async () => {
    const log: string[] = [];
    const started = await startComponents(components(log, ['store', 'bus', 'listener', 'window']));
    await Promise.all([started.stop(), started.stop()]);
    await started.stop();
    assert.deepEqual(log, ['start store', 'start bus', 'start listener', 'start window', 'stop window', 'stop listener', 'stop bus', 'stop store']);
  });

  it('unwinds the started ones in reverse when a start fails, and throws its error', async () => {
    const log: string[] = [];
    await assert.rejects(startComponents(components(log, ['store', 'bus', 'admin', 'window'], 'admin')), /admin cannot start/);
    assert.deepEqual(log, ['start store', 'start bus', 'start admin', 'stop bus', 'stop store']);
  });

  it('goes on unwinding past a stop that fails, and says which one', async () => {
    const log: string[] = [];
    const list = components(log, ['store', 'bus', 'window']);
    list[1] = { ...list[1], stop: () => { log.push('stop bus'); throw new Error('bus stuck'); } } as Component;
    const failed: string[] = [];
    const started = await startComponents(list, (name, error) => failed.push(`${name}: ${(error as Error).message}`));
    await started.stop();
    assert.deepEqual(log, ['start store', 'start bus', 'start window', 'stop window', 'stop bus', 'stop store']);
    assert.deepEqual(failed, ['bus: bus stuck']);
  });
});
