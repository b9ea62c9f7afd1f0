/** The port asked for is taken by another process (docs/product.md "The application" status line: `error: port N is in use`). */
export class PortInUseError extends Error {
  override name = 'PortInUseError' as const;
  readonly port: number;

  constructor(port: number) {
    super(`port ${port} is in use`);
    this.port = port;
  }
}
