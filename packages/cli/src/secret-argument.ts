/**
 * A key given as a command's argument, or `-` for "read it from standard input": every local
 * user can read a process's arguments in `/proc/<pid>/cmdline` while it runs, so a key that
 * should stay secret (the sync folder's, a license) can come through a pipe instead
 * (`tock sync key | ssh laptop tock sync enable ~/Sync/tock --key -`; docs/security.md
 * "The bar every change meets").
 */

/** The key itself, or for `-` the text on standard input without its surrounding white space. */
export async function secretArgument(value: string, input: AsyncIterable<Buffer | string> = process.stdin): Promise<string> {
  if (value !== '-') return value;
  let text = '';
  for await (const chunk of input) text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
  return text.trim();
}
