import { Problem } from '@tock/protocol';

/**
 * The port asked for is taken by another process (docs/product.md "The application" status
 * line: `error: port N is in use`): a `port_in_use` {@link Problem}. No field: the port is fine,
 * another process holds it, and the window shows the line as the form's failure.
 */
export function portInUse(port: number): Problem {
  return new Problem('port_in_use', `port ${port} is in use`);
}
