import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  isTimeInRange,
  BODY_SCHEMAS,
  ENDPOINTS,
  ROUTES,
  UNSIGNED_STATUSES,
  fieldRuleMessage,
  isDateTime,
  parseDateTime,
  parseLocalDate,
  validateBody,
  validateQuery,
  type Validated,
} from '../src/index.ts';
import { OPENAPI_PATH, openApiDocument, renderOpenApi } from '../../../scripts/gen-openapi.ts';

function problems<T>(v: Validated<T>): Record<string, string> {
  return v.ok ? {} : Object.fromEntries(v.problems.map((p) => [p.field, p.message]));
}

describe('unsigned answers', () => {
  it('are documented exactly for the statuses clients accept unsigned (UNSIGNED_STATUSES)', () => {
    const document = openApiDocument() as { paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, { $ref?: string }> }> }>> };
    const mayBeUnsigned = new Set<number>();
    const alwaysSigned = new Set<number>();
    for (const [path, operations] of Object.entries(document.paths)) {
      // The WakaTime door signs nothing: its own auth, docs/protocol.md "Editors: WakaTime heartbeats".
      if (path.startsWith('/wakatime/')) continue;
      for (const operation of Object.values(operations)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const signature = response.headers?.['X-Tock-Response-Signature']?.$ref;
          (signature === '#/components/headers/ResponseSignature' ? alwaysSigned : mayBeUnsigned).add(Number(status));
        }
      }
    }
    for (const status of mayBeUnsigned) assert.ok(UNSIGNED_STATUSES.includes(status), `${status} is documented as possibly unsigned`);
    for (const status of UNSIGNED_STATUSES) assert.ok(!alwaysSigned.has(status), `${status} is documented as always signed`);
    // A slow upload (408) and a failure before verification (500) are answered unsigned.
    assert.ok(mayBeUnsigned.has(408) && mayBeUnsigned.has(500));
  });
});

describe('spec/openapi.yaml', () => {
  it('is exactly what scripts/gen-openapi.ts generates (no drift)', () => {
    assert.equal(
      readFileSync(OPENAPI_PATH, 'utf8'),
      renderOpenApi(),
      'spec/openapi.yaml is out of date: run node scripts/gen-openapi.ts',
    );
  });

  it('documents every route of ROUTES with its method', () => {
    const text = renderOpenApi();
    for (const [path, method] of Object.entries(ROUTES)) {
      assert.match(text, new RegExp(`\\n  ${path.replace(/\//g, '\\/')}:\\n    ${method.toLowerCase()}:\\n`));
      assert.equal(ENDPOINTS[path as keyof typeof ROUTES].method, method);
    }
  });

  it("documents the WakaTime door's 415 on both heartbeat POSTs (a body not sent as application/json)", () => {
    const document = openApiDocument() as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    for (const path of ['/wakatime/api/v1/users/current/heartbeats.bulk', '/wakatime/api/v1/users/current/heartbeats']) {
      assert.ok(document.paths[path]?.post?.responses['415'], `${path} documents 415`);
    }
  });
});

describe('validateBody', () => {
  it('normalizes: drops unknown fields and nulls, trims names', () => {
    const v = validateBody('/entries', { name: '  Deep work ', durationMinutes: 25, note: null, extra: [1], endedAt: null });
    assert.deepEqual(v, { ok: true, value: { name: 'Deep work', durationMinutes: 25 } });
  });

  it('gives the clear message for durationMinutes', () => {
    assert.equal(
      problems(validateBody('/entries', { name: 'a', durationMinutes: 0 })).durationMinutes,
      'must be a number greater than 0 and at most 1440',
    );
  });

  it('refuses numbers given as strings', () => {
    assert.ok('durationMinutes' in problems(validateBody('/entries', { name: 'a', durationMinutes: '10' })));
  });

  it('refuses non-finite numbers', () => {
    for (const d of [Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.ok('durationMinutes' in problems(validateBody('/entries', { name: 'a', durationMinutes: d })));
    }
  });

  it('refuses prototype keys at any depth', () => {
    for (const text of ['{"__proto__":{}}', '{"a":[{"constructor":1}]}', '{"prototype":null}']) {
      const v = validateBody('/activities/stop', JSON.parse(text));
      assert.equal(v.ok, false, text);
    }
  });

  it('survives deeply nested unknown fields without recursion limits', () => {
    const deep = '['.repeat(20_000) + ']'.repeat(20_000);
    assert.equal(validateBody('/activities/stop', JSON.parse(`{"x":${deep}}`)).ok, true);
  });

  it('treats undefined as the empty body: fine for stop, refused elsewhere', () => {
    assert.deepEqual(validateBody('/activities/stop', undefined), { ok: true, value: {} });
    assert.deepEqual(problems(validateBody('/branch-changed', undefined)), {
      body: 'the request body must be a JSON object; it is empty',
    });
  });

  it('requires exactly one of name and activityID', () => {
    const id = '0b7e4c1a-6f1d-4a53-9d2b-3f1e8c0a9b12';
    assert.equal(validateBody('/activities/start', { name: 'x', activityID: null }).ok, true);
    assert.equal(validateBody('/activities/start', { activityID: id.toUpperCase() }).ok, true);
    assert.match(problems(validateBody('/activities/start', { name: 'x', activityID: id })).name ?? '', /not both/);
    assert.match(problems(validateBody('/activities/start', { name: null })).name ?? '', /^give either name or activityID$/);
  });

  it('checks endedAt against the clock only when given one', () => {
    const nowMs = Date.parse('2026-11-22T09:15:00.000Z');
    const body = { name: 'a', durationMinutes: 1, endedAt: '2026-11-22T09:16:01Z' };
    assert.equal(validateBody('/entries', body).ok, true);
    assert.equal(problems(validateBody('/entries', body, { nowMs })).endedAt, 'must not be more than 60 seconds in the future');
    assert.equal(validateBody('/entries', { ...body, endedAt: '2026-11-22T09:16:00Z' }, { nowMs }).ok, true);
  });

  it('counts lengths in code points', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'é', '😀', '𝄞', '中'), { minLength: 1, maxLength: 260 }), (chars) => {
        const name = chars.join('');
        assert.equal(validateBody('/activities/start', { name }).ok, chars.length <= 200);
      }),
      { seed: 20261129 },
    );
  });

  it('accepts any name without control characters of 1-200 code points after trimming', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 }), (raw) => {
        const trimmed = raw.trim();
        const length = [...trimmed].length;
        const expected = length >= 1 && length <= 200 && !/[\p{Cc}\u202A-\u202E\u2066-\u2069]/u.test(trimmed);
        const v = validateBody('/activities/start', { name: raw });
        assert.equal(v.ok, expected);
        if (v.ok) assert.deepEqual(v.value, { name: trimmed });
      }),
      { seed: 20261129 },
    );
  });
});

describe('names and times, the rules of every entrance (docs/security.md "Names", "Times")', () => {
  it('refuses a name with a bidirectional override or isolate', () => {
    for (const c of ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069']) {
      const v = validateBody('/activities/start', { name: `invoice${c}fdp.exe` });
      assert.equal(v.ok, false, `U+${c.codePointAt(0)?.toString(16)}`);
    }
  });

  it('refuses a C1 control character such as U+009B (a terminal CSI)', () => {
    assert.equal(validateBody('/activities/start', { name: 'a\u009B2Jb' }).ok, false);
  });

  it('refuses an endedAt outside the years 1970-2199', () => {
    for (const endedAt of ['1969-12-31T23:59:59Z', '2200-01-01T00:00:00Z', '9999-01-01T00:00:00Z']) {
      const v = validateBody('/entries', { name: 'Docs', durationMinutes: 5, endedAt });
      assert.equal(v.ok, false, endedAt);
    }
    assert.equal(validateBody('/entries', { name: 'Docs', durationMinutes: 5, endedAt: '2199-12-31T23:59:59Z' }).ok, true);
  });

  it('isTimeInRange holds exactly the years 1970-2199', () => {
    assert.equal(isTimeInRange(0), true);
    assert.equal(isTimeInRange(-1), false);
    assert.equal(isTimeInRange(Date.UTC(2199, 11, 31, 23, 59, 59, 999)), true);
    assert.equal(isTimeInRange(Date.UTC(2200, 0, 1)), false);
    assert.equal(isTimeInRange(Number.MAX_SAFE_INTEGER), false);
    assert.equal(isTimeInRange(1.5), false);
  });
});

describe('validateQuery', () => {
  it('defaults q to empty and limit to 20', () => {
    assert.deepEqual(validateQuery('/activities/search', ''), { ok: true, value: { q: '', limit: 20 } });
  });

  it('accepts only decimal integers 1-100 for limit', () => {
    for (const limit of ['1', '100', '007']) assert.equal(validateQuery('/activities/search', `limit=${limit}`).ok, true);
    for (const limit of ['abc', '1.5', '0', '101', '', '-3', '1e2', '0x10']) {
      assert.deepEqual(problems(validateQuery('/activities/search', `limit=${limit}`)), {
        limit: 'must be an integer from 1 to 100',
      });
    }
  });

  it('accepts URLSearchParams too', () => {
    assert.deepEqual(validateQuery('/activities/search', new URLSearchParams({ q: 'é', limit: '3' })), {
      ok: true,
      value: { q: 'é', limit: 3 },
    });
  });
});

describe('isDateTime', () => {
  it('accepts RFC 3339 date-times with a zone and real dates', () => {
    for (const s of ['2026-11-22T09:15:00.000Z', '2026-11-22T09:15:00Z', '2024-02-29T00:00:00+05:30', '2026-11-22t09:15:00.123456z']) {
      assert.equal(isDateTime(s), true, s);
    }
  });

  it('refuses dates that do not exist, missing zones and other forms', () => {
    for (const s of ['2026-02-29T00:00:00Z', '2026-11-22T24:00:00Z', '2026-11-22T09:15:00', '2026-11-22', '1795000000', 'now', '2026-11-22T09:15:00+25:00']) {
      assert.equal(isDateTime(s), false, s);
    }
  });
});

describe('parseDateTime, the one parser of wire times', () => {
  it('reads an offset, fractions to the millisecond, and years before 100', () => {
    assert.equal(parseDateTime('2026-11-22T09:15:00Z'), Date.UTC(2026, 10, 22, 9, 15));
    assert.equal(parseDateTime('2026-11-22T10:15:00.123456+01:00'), Date.UTC(2026, 10, 22, 9, 15, 0, 123));
    assert.equal(parseDateTime('2026-11-22t09:15:00.5-00:30'), Date.UTC(2026, 10, 22, 9, 45, 0, 500));
    assert.equal(new Date(parseDateTime('0099-01-01T00:00:00Z') as number).toISOString(), '0099-01-01T00:00:00.000Z');
  });

  it('refuses what is not clearly an instant', () => {
    for (const s of ['2026-11-22 09:15:00Z', '2026-11-22T09:15Z', '2026-11-22T09:15:00,5Z', '2026-11-22T09:15:00+0100', '2026-11-31T00:00:00Z']) {
      assert.equal(parseDateTime(s), undefined, s);
    }
  });

  it('agrees with Date.parse on every RFC 3339 time it accepts', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true }), (date) => {
        const text = date.toISOString();
        assert.equal(parseDateTime(text), Date.parse(text));
      }),
      { seed: 20261129 },
    );
  });
});

describe('parseLocalDate', () => {
  it('reads days that exist, and nothing else', () => {
    assert.deepEqual(parseLocalDate('2028-02-29'), { year: 2028, month: 2, day: 29 });
    for (const s of ['2026-02-29', '2026-13-01', '2026-11-22T00:00:00Z', '22.11.2026', '2026-1-1', '']) {
      assert.equal(parseLocalDate(s), undefined, s);
    }
  });
});

describe('validateQuery for GET /report', () => {
  it('checks the days and the grouping, and defaults by to activity', () => {
    assert.deepEqual(validateQuery('/report', 'from=2026-11-01&to=2026-11-30&by=day&x=1'), {
      ok: true,
      value: { from: '2026-11-01', to: '2026-11-30', by: 'day' },
    });
    assert.deepEqual(validateQuery('/report', ''), { ok: true, value: { by: 'activity' } });
    assert.deepEqual(problems(validateQuery('/report', 'from=2026-02-30&by=week')), {
      from: 'must be a date YYYY-MM-DD such as 2026-11-22',
      by: 'must be one of activity, day, client, tag',
    });
  });
});

describe('strings', () => {
  it('refuses a lone surrogate, which SQLite could not keep', () => {
    assert.deepEqual(problems(validateBody('/entries', { name: 'A', durationMinutes: 5, note: 'x\ud800y' })), {
      note: 'must be valid Unicode text',
    });
  });

  it('counts a name in the form it is stored in (NFC)', () => {
    const decomposed = 'e\u0301'.repeat(200); // 400 code points, 200 once composed
    assert.equal(validateBody('/activities/start', { name: decomposed }).ok, true);
  });
});

describe('fieldRuleMessage', () => {
  it('says what a field must be in one line, without repeating its name (the problem carries it)', () => {
    assert.equal(
      fieldRuleMessage(BODY_SCHEMAS['/activities/start'].properties.name),
      'must be a string of 1 to 200 characters after trimming, without control characters or bidirectional overrides',
    );
    assert.equal(fieldRuleMessage(BODY_SCHEMAS['/branch-changed'].properties.repo), 'must be a string of at most 1024 characters');
  });
});
