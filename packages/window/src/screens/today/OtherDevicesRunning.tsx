/** Today: what runs on other devices (sync). */
import { useEffect, useState } from 'preact/hooks';
import { request } from '../../api.ts';
import { colorClass } from '../../colors.ts';
import { useT } from '../../i18n/index.ts';
import { useLoaded } from '../../load.ts';
import { useAppState } from '../../state.ts';
import { clockTime, duration } from '../../time.ts';
import type { RunningElsewhere } from '../../types.ts';

/**
 * What runs on other devices (sync, docs/sync.md): the sessions they keep running, which the app
 * reads from their logs (a running session of another device is no block yet), each with the
 * device's name, its activity, since when, its worked time and note. Asked again when the
 * sync status changes (another device's log applied) and every minute for the times.
 */
export function OtherDevicesRunning() {
  const { snapshot } = useAppState();
  const t = useT();
  const sync = snapshot?.sync;
  const applied = sync?.enabled ? sync.devices.map((d) => `${d.deviceID}:${d.applied}`).join('|') : null;
  const [minute, setMinute] = useState(0);
  useEffect(() => {
    if (applied === null) return;
    const id = setInterval(() => setMinute((n) => n + 1), 60_000);
    return () => clearInterval(id);
  }, [applied === null]);
  const { data: others } = useLoaded(
    () => (applied === null ? Promise.resolve([]) : request('GET /api/sync/running')),
    [applied, minute],
    [] as RunningElsewhere[],
  );
  if (others.length === 0) return null;
  const name = (id: string): string => sync?.devices.find((d) => d.deviceID === id)?.name ?? t('today.anotherDevice');
  return (
    <section class="card other-devices" aria-labelledby="other-devices-heading">
      <h2 id="other-devices-heading">{t('today.otherDevices')}</h2>
      <ul class="block-list" data-testid="other-devices-running">
        {others.map((r) => (
          <li key={r.sessionID}>
            <span class="range">{t('today.since', { time: clockTime(Date.parse(r.startedAt)) })}</span>
            <span class="name">
              <span class={`swatch ${colorClass(r.activity.activityID)}`} aria-hidden="true" />
              {r.activity.activityName}
              <span class="badge">{t('today.onDevice', { device: name(r.deviceID) })}</span>
              {r.onBreak && <span class="badge">{t('today.onABreak')}</span>}
            </span>
            <span class="dur">{duration(r.seconds)}</span>
            {r.note && <span class="note">{r.note}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
