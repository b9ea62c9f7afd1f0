/**
 * What the app shows the window, `tock` and the admin channel, as types only: the license, the
 * listener switch, the desktop part (desktop/view.ts). Nothing here imports Node, so the window
 * takes these as they are (`@tock/app/views`, type-only imports erased by its build) instead of
 * keeping copies that could drift from what the app sends.
 */
import type { LicenseState } from '@tock/protocol';

export type { DesktopSettings, DesktopView, IdleQuestion, WorkingHours } from './desktop/view.ts';

/** What settings and `tock license` show. */
export interface LicenseInfo {
  state: LicenseState;
  licensee: string | null;
  expires: string | null;
  /** Trial: days left, rounded up; licensed with an expiry: days until it; otherwise null. */
  daysLeft: number | null;
  trialEnds: string;
}

/** The switch, the port and the status line. */
export interface ListenerStatus {
  enabled: boolean;
  port: number;
  state: 'off' | 'active' | 'error';
  line: string;
  credentialStore: string;
}
