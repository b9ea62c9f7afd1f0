/**
 * Generates spec/openapi.yaml (OpenAPI 3.1) from the one schema source,
 * packages/protocol/src (results.ts, requests.ts, endpoints.ts), so the documentation says
 * what the listener checks.
 *
 *   node scripts/gen-openapi.ts           write spec/openapi.yaml
 *   node scripts/gen-openapi.ts --check   exit 1 when the committed file differs
 *
 * The YAML is written by a small serializer here (no dependency); a protocol test fails when
 * the committed file drifts from this output.
 */

import { readFileSync, writeFileSync } from 'node:fs';
import {
  API_VERSION,
  DEFAULT_PORT,
  ENDPOINTS,
  ERROR_STATUS,
  EVENT_ID_PATTERN,
  EVENT_LIMITS,
  EVENT_STREAM_CONTENT_TYPE,
  IDEMPOTENCY_KEY_PATTERN,
  LICENSE_LOCKED_BODY,
  LIMITS,
  NONCE_PATTERN,
  NO_FORBIDDEN_NAME_CHARACTERS_PATTERN,
  RESULT_SCHEMAS,
  SIGNATURE_PATTERN,
  TIMESTAMP_PATTERN,
  UNSIGNED_STATUSES,
  HEARTBEAT_SCHEMA,
  STATUS_BAR_TODAY_SCHEMA,
  WAKATIME_LIMITS,
  WAKATIME_BULK_PATHS,
  WAKATIME_ROUTES,
  type BodySchema,
  type EndpointSchema,
  type ErrorCode,
  type FieldSchema,
  type QuerySchema,
  type RoutePath,
} from '../packages/protocol/src/index.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export const OPENAPI_PATH = new URL('../spec/openapi.yaml', import.meta.url);

const FORBIDDEN_FIELD_NAMES = ['__proto__', 'constructor', 'prototype'];

/** "400, 401 and 403" */
function listOf(statuses: readonly number[]): string {
  return `${statuses.slice(0, -1).join(', ')} and ${statuses.at(-1)}`;
}

const SIGNING_DESCRIPTION = `Every request, GET /healthcheck included, carries three headers, each exactly once:

- X-Tock-Timestamp: Unix time in whole seconds (1-12 digits), within ${LIMITS.clockSkewSeconds} s of the server clock.
- X-Tock-Nonce: 16-64 characters of A-Z a-z 0-9 _ -, fresh per request (never reused within ${LIMITS.nonceWindowSeconds} s).
- X-Tock-Signature: "v1=" and the lowercase hex HMAC-SHA256, keyed with the UTF-8 bytes of the token, over these six lines joined by "\\n" (no trailing newline):

    TOCK-HMAC-SHA256
    <timestamp, as in the header>
    <nonce, as in the header>
    <method, upper case>
    <request target as sent: path, then "?" and the query if there is one>
    <lowercase hex SHA-256 of the exact body bytes (of the empty string without a body)>

Every answer to a request whose signature verified carries X-Tock-Response-Signature: "v1=" and the hex HMAC-SHA256 with the same key over

    TOCK-HMAC-SHA256-RESPONSE
    <the request's nonce>
    <status code, decimal>
    <lowercase hex SHA-256 of the exact response body bytes>

Clients must check it; it may be missing only on ${listOf(UNSIGNED_STATUSES)}: the statuses the listener may answer before it has verified the request (408: a request that did not arrive in time; 500: a failure before verification).
The ${LIMITS.lockoutThreshold + 1}th failed authentication (clock_drift, bad_signature) within ${LIMITS.lockoutWindowSeconds} s locks every request out for ${LIMITS.lockoutSeconds} s (429 with Retry-After).`;

const EVENT_STREAM_DESCRIPTION = `The event stream (WHATWG server-sent events). Each event is exactly these four fields, in this order, then a blank line:

    id: <run>.<seq>
    event: status | branch-prompt | idle
    data: <one line of JSON: the Status, BranchPrompt or Idle schema>
    sig: v1=<64 lowercase hex>

sig is the lowercase hex HMAC-SHA256, keyed with the token, over these five lines joined by "\\n":

    TOCK-HMAC-SHA256-EVENT
    <the X-Tock-Nonce of the request that opened the stream>
    <id>
    <event>
    <lowercase hex SHA-256 of the exact data bytes>

A status event comes first on every new stream; \`: ping\` comments keep it alive at least every ${EVENT_LIMITS.keepAliveSeconds} s. At most ${EVENT_LIMITS.maxStreams} streams (429 too_many_streams). X-Tock-Response-Signature covers status 200 and the empty body.`;

const API_DESCRIPTION = `The Tock listener: a signed JSON API on 127.0.0.1 for local scripts, editor plugins and the CLI.
Bodies are JSON (Content-Type: application/json), UTF-8, at most ${LIMITS.maxBodyBytes / 1024} KiB. Unknown fields and query parameters are ignored; an optional field sent as null counts as absent; lengths count Unicode code points.
Checks run in this order: Host (403 forbidden_host), browser headers Origin / Sec-Fetch-Site (403 browser_request), lockout (429 locked_out), body size (413), authentication (401), nonce reuse (409 nonce_reused), license (423), route (404 route_not_found, 405 method_not_allowed with Allow), body (415, 400), Idempotency-Key, handler (503 not_wired, 503 storage_full when the disk is full, 500 internal_error).
Every response carries X-Tock-Api-Version: ${API_VERSION} and Cache-Control: no-store, and never Access-Control-* headers.`;

/** Statuses whose answers are always signed: they are only given after verification. */
const ALWAYS_SIGNED = new Set([200, 201, 404, 405, 409, 415, 423, 503]);
/** Statuses given both before and after verification. */
const SOMETIMES_SIGNED = new Set([400, 429, 500]);

function ref(kind: 'schemas' | 'parameters' | 'headers' | 'securitySchemes', name: string): Json {
  return { $ref: `#/components/${kind}/${name}` };
}

/** A request field as JSON Schema; optional fields also accept null (counted as absent). */
function fieldJson(field: FieldSchema, optional: boolean): Json {
  const out: { [key: string]: Json } = {};
  out.type = optional ? [field.type, 'null'] : field.type;
  out.description = field.description;
  if (field.type === 'string') {
    if (field.format) out.format = field.format;
    if (field.enum) out.enum = [...field.enum];
    if (field.minLength !== undefined) out.minLength = field.minLength;
    if (field.maxLength !== undefined) out.maxLength = field.maxLength;
    if (field.noControlChars) out.pattern = NO_FORBIDDEN_NAME_CHARACTERS_PATTERN;
    if (field.trim) out['x-trimmed'] = true;
    if (field.default !== undefined) out.default = field.default;
  } else if (field.type === 'boolean') {
    if (field.default !== undefined) out.default = field.default;
  } else if (field.type === 'array') {
    const { type: _type, description: _description, ...items } = fieldJson(field.items, false) as { [key: string]: Json };
    out.items = { type: 'string', ...items };
    out.maxItems = field.maxItems;
  } else {
    if (field.exclusiveMinimum !== undefined) out.exclusiveMinimum = field.exclusiveMinimum;
    if (field.minimum !== undefined) out.minimum = field.minimum;
    if (field.maximum !== undefined) out.maximum = field.maximum;
    if (field.default !== undefined) out.default = field.default;
  }
  return out;
}

function bodyJson(body: BodySchema): Json {
  const properties: { [key: string]: Json } = {};
  for (const [name, field] of Object.entries(body.properties)) properties[name] = fieldJson(field, !body.required.includes(name));
  const out: { [key: string]: Json } = {
    type: 'object',
    description: body.description,
    properties,
    propertyNames: { not: { enum: FORBIDDEN_FIELD_NAMES } },
  };
  if (body.required.length > 0) out.required = [...body.required];
  if (body.exactlyOneOf) {
    const [a, b] = body.exactlyOneOf;
    out.oneOf = [
      { required: [a], properties: { [a]: { not: { type: 'null' } }, [b]: { type: 'null' } } },
      { required: [b], properties: { [b]: { not: { type: 'null' } }, [a]: { type: 'null' } } },
    ];
  }
  return out;
}

function queryParameters(query: QuerySchema): Json[] {
  return Object.entries(query.properties).map(([name, field]) => ({
    name,
    in: 'query',
    required: false,
    description: field.description,
    schema: fieldJson(field, false),
  }));
}

function responseHeaders(status: number): Json {
  const headers: { [key: string]: Json } = {
    'X-Tock-Api-Version': ref('headers', 'ApiVersion'),
    'Cache-Control': ref('headers', 'CacheControl'),
  };
  if (ALWAYS_SIGNED.has(status)) headers['X-Tock-Response-Signature'] = ref('headers', 'ResponseSignature');
  if (SOMETIMES_SIGNED.has(status)) headers['X-Tock-Response-Signature'] = ref('headers', 'ResponseSignatureIfVerified');
  if (status === 429) headers['Retry-After'] = ref('headers', 'RetryAfter');
  return headers;
}

function errorResponses(codes: readonly ErrorCode[]): { [status: string]: Json } {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: { [status: string]: Json } = {};
  for (const [status, group] of [...byStatus].sort(([a], [b]) => a - b)) {
    if (status === 423) {
      out[status] = {
        description: `The license is locked (trial over or key expired). The body is exactly ${LICENSE_LOCKED_BODY}.`,
        headers: responseHeaders(status),
        content: { 'application/json': { schema: ref('schemas', 'LicenseLocked') } },
      };
      continue;
    }
    out[status] = {
      description: group.join(', '),
      headers: responseHeaders(status),
      content: {
        'application/json': {
          schema: { allOf: [ref('schemas', 'ErrorEnvelope'), { properties: { code: { enum: group } } }] },
        },
      },
    };
  }
  return out;
}

function operationJson(path: RoutePath, endpoint: EndpointSchema): Json {
  const parameters: Json[] = endpoint.query ? queryParameters(endpoint.query) : [];
  if (endpoint.method === 'POST') parameters.push(ref('parameters', 'IdempotencyKey'));
  const operation: { [key: string]: Json } = {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    description: endpoint.description,
  };
  if (endpoint.eventStream) parameters.push(ref('parameters', 'LastEventId'));
  if (parameters.length > 0) operation.parameters = parameters;
  if (endpoint.body) {
    operation.requestBody = {
      required: !endpoint.body.emptyAllowed,
      content: { 'application/json': { schema: ref('schemas', requestSchemaName(path)) } },
    };
  }
  operation.responses = {
    [endpoint.successStatus]: {
      description: endpoint.eventStream ? EVENT_STREAM_DESCRIPTION : 'Success',
      headers: responseHeaders(endpoint.successStatus),
      content: endpoint.eventStream
        ? {
            [EVENT_STREAM_CONTENT_TYPE]: {
              schema: { type: 'string', description: 'Events as described above; x-event-data is the JSON of their data lines.' },
              'x-event-data': endpoint.result as Json,
            },
          }
        : {
        'application/json': {
          schema: {
            type: 'object',
            required: ['ok', 'result'],
            properties: { ok: { const: true }, result: endpoint.result as Json },
          },
        },
      },
    },
    ...errorResponses(endpoint.errors),
  };
  return operation;
}

function requestSchemaName(path: RoutePath): string {
  return `${ENDPOINTS[path].operationId[0]?.toUpperCase()}${ENDPOINTS[path].operationId.slice(1)}Request`;
}

const WAKATIME_DOOR = `The WakaTime door (docs/protocol.md "Editors: WakaTime heartbeats"): on the listener's port while it is on, with its own auth — the editor key, not the token; no X-Tock-* headers, no response signature. Checks in order: Host 403, browser (Origin / Sec-Fetch-Site) 403, its own lockout 429 with Retry-After (more than ${LIMITS.lockoutThreshold} wrong keys in ${LIMITS.lockoutWindowSeconds} s: ${LIMITS.lockoutSeconds} s; the signed API is not locked), body over ${WAKATIME_LIMITS.maxBodyBytes / 1048576} MiB 413, missing or wrong key 401, license locked 423, then the body (a POST's not sent as application/json 415, not JSON 400). Every error body is {"error": "..."}.`;

const errorOnly = (description: string): Json => ({ description, content: { 'application/json': { schema: ref('schemas', 'WakatimeError') } } });

/** The WakaTime paths, with the editor key as their one security scheme. */
function wakatimePaths(): { [path: string]: Json } {
  const security: Json = [{ wakatimeEditorKeyBasic: [] }, { wakatimeEditorKeyBearer: [] }];
  const refusals = {
    '401': errorOnly('The editor key is missing or wrong (the listener token is never accepted here). A wrong key counts toward the lockout.'),
    '403': errorOnly('Host is not 127.0.0.1:<port> or localhost:<port>, or the request came from a web browser.'),
    '423': { description: 'The license is locked.', content: { 'application/json': { schema: ref('schemas', 'LicenseLocked') } } },
    '429': { ...(errorOnly('Locked out after too many wrong editor keys.') as { [key: string]: Json }), headers: { 'Retry-After': ref('headers', 'RetryAfter') } },
  };
  const heartbeatBody = (schema: Json): Json => ({ required: true, content: { 'application/json': { schema } } });
  const notJson = errorOnly('The body was not sent with Content-Type: application/json.');
  const paths: { [path: string]: Json } = {};
  for (const [path, method] of Object.entries(WAKATIME_ROUTES)) {
    const bulk = WAKATIME_BULK_PATHS.has(path as keyof typeof WAKATIME_ROUTES);
    const legacy = bulk && !path.endsWith('.bulk');
    const operation: { [key: string]: Json } = { tags: ['WakaTime'], security, description: WAKATIME_DOOR };
    if (method === 'GET') {
      operation.operationId = 'wakatimeStatusBarToday';
      operation.summary = "Today's total as WakaTime's status bar (wakatime-cli --today prints data.grand_total.text)";
      operation.responses = { '200': { description: 'Today.', content: { 'application/json': { schema: ref('schemas', 'StatusBarToday') } } }, ...refusals };
    } else if (bulk) {
      operation.operationId = legacy ? (path.endsWith('/') ? 'wakatimeApiUrlSlashBulk' : 'wakatimeApiUrlBulk') : 'wakatimeHeartbeatsBulk';
      operation.summary = legacy
        ? `The api_url itself, where the legacy Python wakatime (13.1.0 and before) posts its bulk: the same as heartbeats.bulk`
        : `Up to ${WAKATIME_LIMITS.maxBulk} heartbeats, stored in one transaction and answered once committed`;
      operation.requestBody = heartbeatBody({ type: 'array', minItems: 1, maxItems: WAKATIME_LIMITS.maxBulk, items: ref('schemas', 'Heartbeat') });
      const responses: Json = { type: 'object', required: ['responses'], properties: { responses: { type: 'array', items: { type: 'array', prefixItems: [{ oneOf: [ref('schemas', 'HeartbeatAccepted'), ref('schemas', 'WakatimeError')] }, { enum: [201, 400] }] } }, error: { type: 'string' } } };
      operation.responses = {
        '201': { description: 'At least one heartbeat was accepted; each one answered in the order sent. A heartbeat equal to a stored one (same time to the ms, entity, is_write) gets the stored id.', content: { 'application/json': { schema: responses } } },
        '400': { description: 'The body is not an array of 1-1000 heartbeats (error only), or every heartbeat was refused (error and responses).', content: { 'application/json': { schema: responses } } },
        '413': errorOnly(`The body is over ${WAKATIME_LIMITS.maxBodyBytes / 1048576} MiB.`),
        '415': notJson,
        ...refusals,
      };
    } else {
      operation.operationId = 'wakatimeHeartbeat';
      operation.summary = 'One heartbeat, answered once committed';
      operation.requestBody = heartbeatBody(ref('schemas', 'Heartbeat'));
      operation.responses = {
        '201': { description: 'Accepted (or equal to a stored one: its id).', content: { 'application/json': { schema: ref('schemas', 'HeartbeatAccepted') } } },
        '400': errorOnly('The heartbeat was refused (the reason), or the body is not one JSON object.'),
        '413': errorOnly(`The body is over ${WAKATIME_LIMITS.maxBodyBytes / 1048576} MiB.`),
        '415': notJson,
        ...refusals,
      };
    }
    paths[path] = { [method.toLowerCase()]: operation };
  }
  return paths;
}

/** The OpenAPI 3.1 document of the listener, as plain JSON. */
export function openApiDocument(): Json {
  const paths: { [path: string]: Json } = {};
  const requestSchemas: { [name: string]: Json } = {};
  for (const [path, endpoint] of Object.entries(ENDPOINTS) as [RoutePath, EndpointSchema][]) {
    paths[path] = { [endpoint.method.toLowerCase()]: operationJson(path, endpoint) };
    if (endpoint.body) requestSchemas[requestSchemaName(path)] = bodyJson(endpoint.body);
  }
  const signingHeader = (name: string, pattern: RegExp, description: string): Json => ({
    type: 'apiKey',
    in: 'header',
    name,
    description: `${description} Pattern: ${pattern.source}. See tockSignature for the HMAC.`,
  });
  return {
    openapi: '3.1.0',
    info: { title: 'Tock listener API', version: String(API_VERSION), description: API_DESCRIPTION },
    servers: [{ url: `http://127.0.0.1:${DEFAULT_PORT}`, description: 'The port is set in the app (1024-65535).' }],
    security: [{ tockTimestamp: [], tockNonce: [], tockSignature: [] }],
    paths: { ...paths, ...wakatimePaths() },
    components: {
      securitySchemes: {
        wakatimeEditorKeyBasic: {
          type: 'http',
          scheme: 'basic',
          description: 'Only on /wakatime/api/v1/...: Basic base64(key) or base64(key + ":"), the key being the editor key (a lower-case UUID v4, "waka_" prefix accepted) that `tock editors enable` makes. Deliberately different from the signed API: it is what every WakaTime plugin sends. It opens nothing but the WakaTime paths, and the listener token is not accepted there.',
        },
        wakatimeEditorKeyBearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'Only on /wakatime/api/v1/...: Bearer <editor key> (see wakatimeEditorKeyBasic).',
        },
        tockTimestamp: signingHeader('X-Tock-Timestamp', TIMESTAMP_PATTERN, 'Unix time in whole seconds.'),
        tockNonce: signingHeader('X-Tock-Nonce', NONCE_PATTERN, 'A fresh nonce per request.'),
        tockSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Tock-Signature',
          description: `Pattern: ${SIGNATURE_PATTERN.source}.\n\n${SIGNING_DESCRIPTION}`,
        },
      },
      parameters: {
        LastEventId: {
          name: 'Last-Event-ID',
          in: 'header',
          required: false,
          description: `Resume after this event id (<run>.<seq>): the stream starts with exactly the later events while the app still holds them (at least the last ${EVENT_LIMITS.resumeEvents}); otherwise with a fresh status event. Not part of the signature.`,
          schema: { type: 'string', pattern: EVENT_ID_PATTERN.source },
        },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: `Repeating a key seen in the last ${LIMITS.idempotencyWindowSeconds / 3600} h with the same method, path and body bytes returns the first 2xx answer again (signed afresh) without doing the work twice; with another method, path or body: 409 idempotency_conflict. Only 2xx answers are remembered. Not part of the signature.`,
          schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN.source },
        },
      },
      headers: {
        ApiVersion: { description: 'The API version.', schema: { const: String(API_VERSION) } },
        CacheControl: { description: 'Answers are never cached.', schema: { const: 'no-store' } },
        ResponseSignature: {
          description: 'HMAC of the answer (see tockSignature).',
          required: true,
          schema: { type: 'string', pattern: SIGNATURE_PATTERN.source },
        },
        ResponseSignatureIfVerified: {
          description: 'HMAC of the answer, present when the request signature had verified (see tockSignature).',
          required: false,
          schema: { type: 'string', pattern: SIGNATURE_PATTERN.source },
        },
        RetryAfter: { description: 'Seconds until requests are accepted again.', schema: { type: 'integer', minimum: 1 } },
      },
      schemas: {
        ...(RESULT_SCHEMAS as unknown as { [name: string]: Json }),
        ...requestSchemas,
        FieldProblem: {
          type: 'object',
          required: ['field', 'message'],
          properties: { field: { type: 'string' }, message: { type: 'string' } },
        },
        ErrorEnvelope: {
          type: 'object',
          required: ['ok', 'error', 'code'],
          properties: {
            ok: { const: false },
            error: { type: 'string', description: 'A human-readable message.' },
            code: { enum: Object.keys(ERROR_STATUS) },
            details: { type: 'array', items: ref('schemas', 'FieldProblem'), description: 'On validation_failed.' },
          },
        },
        Heartbeat: HEARTBEAT_SCHEMA as unknown as Json,
        HeartbeatAccepted: {
          type: 'object',
          required: ['data'],
          properties: { data: { type: 'object', required: ['id', 'time'], properties: { id: { type: 'string', format: 'uuid' }, time: { type: 'number' } } } },
        },
        WakatimeError: { type: 'object', required: ['error'], properties: { error: { type: 'string' } } },
        StatusBarToday: STATUS_BAR_TODAY_SCHEMA as unknown as Json,
        LicenseLocked: {
          type: 'object',
          required: ['error'],
          properties: { error: { const: 'license locked' } },
          additionalProperties: false,
        },
      },
    },
  };
}

// ---- YAML -------------------------------------------------------------------------------

const PLAIN_KEY = /^[A-Za-z_$/][A-Za-z0-9_$/.-]*$/;
const YAML_WORDS = /^(?:true|false|null|yes|no|on|off|y|n|~)$/i;

function yamlKey(key: string): string {
  return PLAIN_KEY.test(key) && !YAML_WORDS.test(key) ? key : JSON.stringify(key);
}

function yamlScalar(value: Json): string {
  return JSON.stringify(value); // JSON scalars are valid YAML flow scalars
}

function isCollection(value: Json): value is Json[] | { [key: string]: Json } {
  return typeof value === 'object' && value !== null && (Array.isArray(value) ? value.length > 0 : Object.keys(value).length > 0);
}

/** A multi-line string as a literal block, when it survives one unchanged. */
function literalBlock(value: Json, indent: string): string[] | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a control character cannot be written in a YAML literal block
  if (typeof value !== 'string' || !value.includes('\n') || /^\s|[ \t]\n|\s$|[\r\u0000-\u0008\u000b-\u001f]/.test(value)) {
    return undefined;
  }
  return ['|-', ...value.split('\n').map((line) => (line === '' ? '' : indent + line))];
}

function yamlLines(value: Json, indent: string): string[] {
  if (!isCollection(value)) return [yamlScalar(value)];
  const lines: string[] = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      const inner = yamlLines(item, indent + '  ');
      lines.push(`${indent}- ${isCollection(item) ? (inner[0] as string).slice(indent.length + 2) : inner[0]}`, ...inner.slice(1));
    }
    return lines;
  }
  for (const [key, item] of Object.entries(value)) {
    const block = literalBlock(item, indent + '  ');
    if (block) lines.push(`${indent}${yamlKey(key)}: ${block[0]}`, ...block.slice(1));
    else if (isCollection(item)) lines.push(`${indent}${yamlKey(key)}:`, ...yamlLines(item, indent + '  '));
    else lines.push(`${indent}${yamlKey(key)}: ${yamlScalar(item)}`);
  }
  return lines;
}

/** Block-style YAML for a JSON value. */
export function toYaml(value: Json): string {
  return yamlLines(value, '').join('\n') + '\n';
}

/** The text of spec/openapi.yaml. */
export function renderOpenApi(): string {
  return '# Generated by scripts/gen-openapi.ts from packages/protocol/src (results.ts, requests.ts, endpoints.ts). Do not edit.\n' + toYaml(openApiDocument());
}

if (import.meta.main) {
  const text = renderOpenApi();
  if (process.argv.includes('--check')) {
    let committed = '';
    try {
      committed = readFileSync(OPENAPI_PATH, 'utf8');
    } catch {
      // a missing file is drift too
    }
    if (committed !== text) {
      console.error('spec/openapi.yaml is out of date: run node scripts/gen-openapi.ts');
      process.exit(1);
    }
  } else {
    writeFileSync(OPENAPI_PATH, text);
    console.log('wrote spec/openapi.yaml');
  }
}
