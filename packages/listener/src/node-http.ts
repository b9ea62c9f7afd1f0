/**
 * `node:http`, taken through `require` rather than `import`. Node builds an ES module from a
 * builtin by reading every one of its exports, and `node:http`'s `WebSocket`, `CloseEvent` and
 * `MessageEvent` are getters that load undici, Node's bundled fetch and WebSocket: about 12 MB
 * of resident memory and 20 ms of start-up that no Tock process uses (bench/README.md "A
 * lighter idle app"). `require` hands over the module object and reads nothing. Every value
 * Tock takes from `node:http` comes from here; `import type` from `node:http` is erased and free.
 */
import type * as Http from 'node:http';
import { createRequire } from 'node:module';

/** The `node:http` module, without undici. */
export const nodeHttp = createRequire(import.meta.url)('node:http') as typeof Http;
