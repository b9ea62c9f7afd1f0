/**
 * A TockClient session for the app in its own network namespace (run there with nsenter by
 * attack-secrets.test.ts): health, start, log, status, stop. Prints the results as JSON.
 *
 *   node net-driver.ts PORT TOKEN
 */
import { TockClient } from '@tock/client';

const [port, token] = process.argv.slice(2);
const client = new TockClient({ port: Number(port), token: token as string });
const health = await client.healthcheck();
const started = await client.startActivity('Offline', { createIfMissing: true });
const entry = await client.logEntry({ name: 'Offline', durationMinutes: 5 });
const status = await client.getStatus();
const stopped = await client.stopActivity();
process.stdout.write(JSON.stringify({ health, started, entry, status, stopped }) + '\n');
