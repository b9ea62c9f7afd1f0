/**
 * What the tests of every package share (docs/architecture.md "Tests and the clock"). A test
 * imports it as `@tock/test-support`, declared in its package's devDependencies — never by a
 * relative path into another package.
 */
export { faketimeOffset, pinnedClockEnv, pinnedOffsetSeconds } from './pinned-clock.ts';
export { until, type UntilOptions, type Watched } from './until.ts';
