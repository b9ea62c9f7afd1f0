/** The words of the app's own page for a window address it refuses, in English (the source; see index.ts). */
export const en = {
  'refused.used': 'This Tock address was already used: each one opens one window, once. Run `tock open`, or choose “Open Tock” in the tray, to open a new window.',
  'refused.expired': 'This Tock address has expired: each one works for 5 minutes after it was made. Run `tock open`, or choose “Open Tock” in the tray, to open a new window.',
  'refused.unknown': 'This Tock address is not one the running app made (it may be from an earlier launch). Run `tock open`, or choose “Open Tock” in the tray, to open a new window.',
} as const;
