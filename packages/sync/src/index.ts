/**
 * @tock/sync: the folder sync service (docs/sync.md). `SyncService` writes this device's log
 * to the sync folder, watches the folder and applies the other devices' logs; core owns the
 * operations, the hybrid clocks and the merge (`@tock/core/sync`), the app wires the service to
 * its doors and hands it the credential store's item for the folder key (`KeyStore`).
 */
export { SyncService } from './sync-service.ts';
export type { SyncServiceOptions } from './sync-service-options.ts';
export { memoryKeyStore, type KeyStore } from './sync-key.ts';
export { BOOK_IDLE_DAYS, bookView, claimBook, moveBook } from './book.ts';
export type { BookView, SyncDeviceStatus, SyncEnableResult, SyncStatus } from './status.ts';
