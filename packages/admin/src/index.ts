/**
 * @tock/admin: the admin socket's frames and its caller (docs/architecture.md "The packages and
 * their arrows"). The app serves the socket (packages/app/src/admin.ts); the CLI asks through
 * `adminRequest` and `adminDownload`.
 */
export { AdminError, STREAM_END, STREAM_ERROR, STREAM_PROBLEM, STREAM_SUMMARY, type ProblemWire } from './frames.ts';
export { AppNotRunningError, adminDownload, adminRequest } from './client.ts';
