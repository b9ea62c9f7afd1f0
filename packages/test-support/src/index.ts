/**
 * What the tests of every package share (docs/architecture.md "Tests and the clock"). A test
 * imports it as `@tock/test-support`, declared in its package's devDependencies — never by a
 * relative path into another package.
 */
export { faketimeOffset, pinnedClockEnv, pinnedOffsetSeconds } from './pinned-clock.ts';
export { type DBusSession, startDBusSession, startTraySession, type TraySession, XAPP_SN_WATCHER } from './session-bus.ts';
export { removeDir, tempDirs, tempDirUntilExit } from './temp-dirs.ts';
export { until, type UntilOptions, type Watched } from './until.ts';
export { startXDisplay, startXvfb, tapXprop, type XDisplay, type XpropTap, type Xvfb, type XvfbOptions } from './x-display.ts';
