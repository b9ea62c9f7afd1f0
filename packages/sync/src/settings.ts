/**
 * Sync's settings in the store and this device's identity (docs/sync.md): the folder and the
 * name while sync is on, the device id made once per Tock home, the one-timer setting and the
 * names other devices give themselves. The keys are core's (`SYNC_SETTINGS`).
 */

import type { Store } from '@tock/core';
import { SYNC_SETTINGS } from '@tock/core/sync';

/** The folder and this device's name while sync is on (setting `sync`). */
export interface SyncConfig {
  dir: string;
  name: string;
  /** 2 for a format-2 folder; absent in a store that synced in format 1 (not read any more). */
  format?: number;
}

/** This device's id in every folder, made once (setting `syncDevice`); kept when sync is turned off. */
export interface DeviceIdentity {
  deviceID: string;
  createdAt: number;
}

/** The folder and name while sync is on. */
export function syncConfig(store: Store): SyncConfig | undefined {
  return store.settings.get<SyncConfig>(SYNC_SETTINGS.config);
}

/** This device's identity, once sync was turned on in this store. */
export function deviceIdentity(store: Store): DeviceIdentity | undefined {
  return store.settings.get<DeviceIdentity>(SYNC_SETTINGS.device);
}

/** This device's identity, made (a new id, made `now`) the first time sync is turned on. */
export function ensureDeviceIdentity(store: Store, now: () => number): DeviceIdentity {
  const known = deviceIdentity(store);
  if (known) return known;
  const identity = { deviceID: crypto.randomUUID(), createdAt: now() };
  store.settings.set(SYNC_SETTINGS.device, identity);
  return identity;
}

/**
 * One timer across devices (docs/sync.md "One timer"), on unless turned off: a later start
 * arriving from another device ends this device's running session.
 */
export function oneTimerOn(store: Store): boolean {
  return store.settings.get<boolean>(SYNC_SETTINGS.oneTimer) !== false;
}

/**
 * Keeps the name another device's `device.json` gives it (setting `syncDeviceNames`), so an
 * export names the device a block was made on even when the folder is not being read
 * (docs/data.md "Export"). Written only when a name is new or changed.
 */
export function rememberDeviceName(store: Store, deviceID: string, name: string): void {
  const known = store.settings.get<Record<string, string>>(SYNC_SETTINGS.deviceNames) ?? {};
  if (known[deviceID] === name) return;
  store.settings.set(SYNC_SETTINGS.deviceNames, { ...known, [deviceID]: name });
}
