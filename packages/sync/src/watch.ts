/**
 * Watching the sync folder (docs/sync.md "Reading the folder"): `tock-sync-v2/` (new device
 * folders) and each device folder (segments renamed into it), one non-recursive watch per
 * folder — a recursive watch on Linux lost the events of a file replaced by rename after the
 * first. A burst of events (a rename comes with several) asks for one scan shortly after. A
 * folder that goes away ends its watch; the rescan (every second, the service's timer) notices
 * and watches again when it is back.
 */

import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { formatDir } from './folder.ts';

/** The folder's watches while sync runs; see the file comment. */
export class FolderWatch {
  private readonly scan: () => void;
  private readonly watchers = new Map<string, FSWatcher>();
  private soon: NodeJS.Timeout | undefined;

  /** `scan` is called shortly after the watched folders changed. */
  constructor(scan: () => void) {
    this.scan = scan;
  }

  /** Watches `dir`'s format folder and the device folders `devices` in it (those not watched yet). */
  watch(dir: string, devices: readonly string[] = []): void {
    const top = formatDir(dir);
    for (const path of [top, ...devices.map((d) => join(top, d))]) {
      if (this.watchers.has(path)) continue;
      try {
        const watcher = watch(path, { persistent: false }, () => this.scanSoon());
        watcher.on('error', () => {
          watcher.close();
          this.watchers.delete(path);
        });
        this.watchers.set(path, watcher);
      } catch {
        // Not there (yet): the rescan tries again.
      }
    }
  }

  /** Ends every watch and the scan they asked for (sync stops). */
  close(): void {
    if (this.soon) clearTimeout(this.soon);
    this.soon = undefined;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  /** A scan shortly after a burst of watch events. */
  private scanSoon(): void {
    if (this.soon) return;
    this.soon = setTimeout(() => {
      this.soon = undefined;
      this.scan();
    }, 30);
  }
}
