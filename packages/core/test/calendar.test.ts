/**
 * Meetings from an `.ics` file (docs/calendar.md): recurrence with exceptions and overrides,
 * zones across a DST change, floating times, and what is ignored (all-day, cancelled,
 * declined, transparent); then hostile rules stay within the limits.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CALENDAR_LIMITS, parseCalendar } from '../src/calendar.ts';

const ics = (...events: string[]): string =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//tock test//EN', ...events, 'END:VCALENDAR', ''].join('\r\n');
const vevent = (...lines: string[]): string => ['BEGIN:VEVENT', ...lines, 'END:VEVENT'].join('\r\n');
const iso = (ms: number): string => new Date(ms).toISOString();
const day = (d: string): [number, number] => [Date.parse(`${d}T00:00:00Z`), Date.parse(`${d}T00:00:00Z`) + 86_400_000];

test('a weekly meeting recurs, an EXDATE leaves one out and a RECURRENCE-ID moves another', () => {
  const cal = parseCalendar(
    ics(
      vevent(
        'UID:standup',
        'DTSTART:20261102T090000Z',
        'DTEND:20261102T093000Z',
        'RRULE:FREQ=WEEKLY;UNTIL=99991231T000000Z',
        'EXDATE:20261109T090000Z',
        'RDATE:20261104T150000Z',
        'SUMMARY:Standup',
      ),
      vevent('UID:standup', 'RECURRENCE-ID:20261116T090000Z', 'DTSTART:20261116T110000Z', 'DTEND:20261116T120000Z', 'SUMMARY:Standup (moved)'),
    ),
  );
  const [from] = day('2026-11-01');
  const meetings = cal.meetingsBetween(from, from + 30 * 86_400_000, 'UTC');
  assert.deepEqual(
    meetings.map((m) => [iso(m.startMs), iso(m.endMs), m.summary]),
    [
      ['2026-11-02T09:00:00.000Z', '2026-11-02T09:30:00.000Z', 'Standup'],
      ['2026-11-04T15:00:00.000Z', '2026-11-04T15:30:00.000Z', 'Standup'],
      ['2026-11-16T11:00:00.000Z', '2026-11-16T12:00:00.000Z', 'Standup (moved)'],
      ['2026-11-23T09:00:00.000Z', '2026-11-23T09:30:00.000Z', 'Standup'],
      ['2026-11-30T09:00:00.000Z', '2026-11-30T09:30:00.000Z', 'Standup'],
    ],
  );
  assert.deepEqual(cal.problems, []);
});

test('a TZID meeting keeps its wall time across a DST change (VTIMEZONE or IANA name)', () => {
  const vtimezone = [
    'BEGIN:VTIMEZONE',
    'TZID:W. Europe Standard Time',
    'BEGIN:STANDARD',
    'DTSTART:16010101T030000',
    'TZOFFSETFROM:+0200',
    'TZOFFSETTO:+0100',
    'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10',
    'END:STANDARD',
    'BEGIN:DAYLIGHT',
    'DTSTART:16010101T020000',
    'TZOFFSETFROM:+0100',
    'TZOFFSETTO:+0200',
    'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3',
    'END:DAYLIGHT',
    'END:VTIMEZONE',
  ].join('\r\n');
  for (const tzid of ['Europe/Berlin', 'W. Europe Standard Time']) {
    const cal = parseCalendar(
      ics(
        vtimezone,
        vevent('UID:w', `DTSTART;TZID=${tzid}:20261019T100000`, `DTEND;TZID=${tzid}:20261019T110000`, 'RRULE:FREQ=WEEKLY;COUNT=3', 'SUMMARY:Weekly'),
      ),
    );
    const [from] = day('2026-10-18');
    const starts = cal.meetingsBetween(from, from + 21 * 86_400_000, 'Pacific/Auckland').map((m) => iso(m.startMs));
    // 10:00 in Berlin is 08:00 UTC in summer time, 09:00 UTC after 25 October.
    assert.deepEqual(starts, ['2026-10-19T08:00:00.000Z', '2026-10-26T09:00:00.000Z', '2026-11-02T09:00:00.000Z'], tzid);
    assert.deepEqual(cal.problems, [], tzid);
  }
});

test('floating times are read in the zone asked; an unknown zone is one problem and reads as floating', () => {
  const cal = parseCalendar(
    ics(
      vevent('UID:f', 'DTSTART:20261120T140000', 'DTEND:20261120T150000', 'SUMMARY:Floating'),
      vevent('UID:u', 'DTSTART;TZID=Mars/Olympus:20261120T160000', 'DTEND;TZID=Mars/Olympus:20261120T170000', 'SUMMARY:Unknown'),
    ),
  );
  const [from, to] = day('2026-11-20');
  const ny = cal.meetingsBetween(from - 86_400_000, to + 86_400_000, 'America/New_York');
  assert.deepEqual(
    ny.map((m) => iso(m.startMs)),
    ['2026-11-20T19:00:00.000Z', '2026-11-20T21:00:00.000Z'],
  );
  assert.equal(cal.problems.length, 1);
  assert.match(cal.problems[0] as string, /unknown time zone "Mars\/Olympus"/);
  // Each problem is a code and values; its English line is made from them.
  assert.deepEqual(cal.found, [{ code: 'calendar_zone_unknown', values: { zone: 'Mars/Olympus' } }]);
});

test('all-day, cancelled, transparent and declined events are not meetings; a cancelled override removes one occurrence', () => {
  const cal = parseCalendar(
    ics(
      vevent('UID:allday', 'DTSTART;VALUE=DATE:20261120', 'DTEND;VALUE=DATE:20261121', 'SUMMARY:Holiday'),
      vevent('UID:c', 'DTSTART:20261120T080000Z', 'DTEND:20261120T090000Z', 'STATUS:CANCELLED', 'SUMMARY:Cancelled'),
      vevent('UID:t', 'DTSTART:20261120T090000Z', 'DTEND:20261120T100000Z', 'TRANSP:TRANSPARENT', 'SUMMARY:Free'),
      vevent(
        'UID:d',
        'DTSTART:20261120T100000Z',
        'DTEND:20261120T110000Z',
        'SUMMARY:Declined',
        'ATTENDEE;CN=Ana;PARTSTAT=DECLINED:mailto:Ana@Example.org',
        'ATTENDEE;PARTSTAT=ACCEPTED:mailto:bo@example.org',
      ),
      vevent('UID:r', 'DTSTART:20261119T120000Z', 'DURATION:PT45M', 'RRULE:FREQ=DAILY;COUNT=3', 'SUMMARY:Daily'),
      vevent('UID:r', 'RECURRENCE-ID:20261120T120000Z', 'DTSTART:20261120T120000Z', 'DURATION:PT45M', 'STATUS:CANCELLED', 'SUMMARY:Daily'),
    ),
  );
  const [from, to] = day('2026-11-20');
  assert.deepEqual(
    cal.meetingsBetween(from, to, 'UTC', ['ana@example.org']).map((m) => m.summary),
    [],
  );
  // Someone else's decline is not the person's.
  assert.deepEqual(
    cal.meetingsBetween(from, to, 'UTC', ['bo@example.org']).map((m) => m.summary),
    ['Declined'],
  );
  assert.deepEqual(
    cal.meetingsBetween(from - 86_400_000, to + 86_400_000, 'UTC', ['ana@example.org']).map((m) => iso(m.startMs)),
    ['2026-11-19T12:00:00.000Z', '2026-11-21T12:00:00.000Z'],
  );
  assert.equal(cal.events, 6);
});

test('a billion-times RRULE with UNTIL in 9999 expands only as far as asked, within the step budget', () => {
  const cal = parseCalendar(ics(vevent('UID:b', 'DTSTART:20260101T090000Z', 'DURATION:PT30M', 'RRULE:FREQ=DAILY;COUNT=1000000000;UNTIL=99991231T000000Z', 'SUMMARY:Forever')));
  const [from, to] = day('2026-11-20');
  assert.deepEqual(cal.meetingsBetween(from, to, 'UTC').map((m) => iso(m.startMs)), ['2026-11-20T09:00:00.000Z']);
  // A day thousands of years on: each ask goes on within its step budget, until the
  // occurrence limit, said once.
  const far = Date.parse('4000-01-01T00:00:00Z');
  for (let ask = 0; ask < 4; ask++) assert.deepEqual(cal.meetingsBetween(far, far + 86_400_000, 'UTC'), []);
  assert.deepEqual(cal.problems, [`"Forever" has more than ${CALENDAR_LIMITS.maxOccurrences} occurrences: later ones are not read`]);
});

test('a weekly meeting without COUNT is expanded from near the days asked, whatever its first day', () => {
  const cal = parseCalendar(
    ics(vevent('UID:w', 'DTSTART;TZID=Europe/Berlin:19900101T100000', 'DURATION:PT1H', 'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH', 'SUMMARY:Old habit')),
  );
  const budget = { left: CALENDAR_LIMITS.stepsPerQuery };
  const [from] = day('2026-11-16');
  const starts = cal.meetingsBetween(from, from + 14 * 86_400_000, 'UTC', [], budget).map((m) => iso(m.startMs));
  // 1990-01-01 was a Monday; 2026-11-16 is 1924 weeks on (even): that week and not the next.
  assert.deepEqual(starts, ['2026-11-16T09:00:00.000Z', '2026-11-19T09:00:00.000Z']);
  assert.ok(CALENDAR_LIMITS.stepsPerQuery - budget.left < 50, `${CALENDAR_LIMITS.stepsPerQuery - budget.left} steps`);
  assert.deepEqual(cal.problems, []);
});

test('a rule that never matches is given up instead of looping; the 30th of February is never looked for', () => {
  const cal = parseCalendar(ics(vevent('UID:n', 'DTSTART:20260101T090000Z', 'DURATION:PT30M', 'RRULE:FREQ=DAILY;BYWEEKNO=53;BYMONTH=6', 'SUMMARY:Never')));
  const [from, to] = day('2026-11-20');
  assert.deepEqual(cal.meetingsBetween(from, to, 'UTC'), []);
  assert.deepEqual(cal.problems, [`a recurrence found no date in ${CALENDAR_LIMITS.stepsPerOccurrence} tries: the rest of it is not read`]);
  const feb30 = parseCalendar(ics(vevent('UID:f', 'DTSTART:20260101T090000Z', 'DURATION:PT30M', 'RRULE:FREQ=DAILY;BYMONTH=2,4;BYMONTHDAY=30,31', 'SUMMARY:Never')));
  assert.deepEqual(feb30.meetingsBetween(from, to, 'UTC'), []);
  assert.deepEqual(
    feb30.meetingsBetween(...day('2026-01-01'), 'UTC').map((m) => iso(m.startMs)),
    ['2026-01-01T09:00:00.000Z'],
  );
  assert.deepEqual(feb30.problems, []);
});

test('SECONDLY and MINUTELY rules are not meetings; what is not iCalendar is one line, an event that never ends is left out', () => {
  const cal = parseCalendar(ics(vevent('UID:s', 'DTSTART:20260101T090000Z', 'DURATION:PT1S', 'RRULE:FREQ=SECONDLY', 'SUMMARY:Tick')));
  assert.deepEqual(cal.meetingsBetween(...day('2026-11-20'), 'UTC'), []);
  assert.match(cal.problems[0] as string, /repeats every second/);
  for (const text of ['x'.repeat(1_000_000), 'BEGIN:VCARD\r\nEND:VCARD\r\n', '']) {
    assert.throws(
      () => parseCalendar(text),
      (error: Error) => /^not an iCalendar file: /.test(error.message) && !error.message.includes('\n'),
    );
  }
  // An event that never ends is left out with one line; the rest is read.
  const cut = parseCalendar(ics(vevent('UID:ok', 'DTSTART:20261120T090000Z', 'DURATION:PT1H', 'SUMMARY:Kept')).replace('END:VCALENDAR', 'BEGIN:VEVENT\r\nDTSTART:2026'));
  assert.deepEqual(cut.meetingsBetween(...day('2026-11-20'), 'UTC').map((m) => m.summary), ['Kept']);
  assert.deepEqual(cut.problems, ['a VEVENT does not end (END:VEVENT missing): it is left out']);
  assert.deepEqual(cut.found, [{ code: 'calendar_unended', values: { component: 'VEVENT' } }]);
});

test('moving a rule’s start on by whole periods gives what expanding it from DTSTART gives', () => {
  const from = Date.parse('2026-11-16T00:00:00Z');
  for (const rule of ['FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH', 'FREQ=DAILY;INTERVAL=3', 'FREQ=DAILY;BYDAY=TU;INTERVAL=2', 'FREQ=WEEKLY;BYDAY=FR;BYHOUR=9,15']) {
    const starts = (r: string): string[] => {
      const cal = parseCalendar(ics(vevent('UID:x', 'DTSTART;TZID=Europe/Berlin:19900101T100000', 'DURATION:PT1H', `RRULE:${r}`, 'SUMMARY:x')));
      let found: string[] = [];
      // COUNT makes the rule one expanded from DTSTART and kept: a few asks reach 2026.
      for (let ask = 0; ask < 5; ask++) found = cal.meetingsBetween(from, from + 21 * 86_400_000, 'UTC').map((m) => iso(m.startMs));
      return found;
    };
    const moved = starts(rule);
    assert.ok(moved.length > 0, rule);
    assert.deepEqual(moved, starts(`${rule};COUNT=100000`), rule);
  }
});

test('an event or zone of more than 10 000 lines or dates is left out unparsed, one line each; the rest is read', () => {
  const max = CALENDAR_LIMITS.maxComponentLines;
  assert.equal(max, 10_000, 'docs/calendar.md "Limits"');
  const dates = (n: number, from = Date.UTC(2000, 0, 1)): string[] => Array.from({ length: n }, (_, i) => new Date(from + i * 86_400_000).toISOString().replace(/[-:]/g, '').slice(0, 15) + 'Z');
  const cal = parseCalendar(
    ics(
      // One list of dates on one (folded) line, one date a line, a component nested past counting: each too long.
      vevent('UID:list', 'DTSTART:19990101T090000Z', 'DURATION:PT30M', `RDATE:${dates(max).join(',\r\n ')}`, 'SUMMARY:List'),
      vevent('UID:lines', 'DTSTART:19990101T090000Z', 'DURATION:PT30M', 'RRULE:FREQ=DAILY', ...dates(max).map((d) => `EXDATE:${d}`), 'SUMMARY:Lines'),
      vevent('UID:deep', 'DTSTART:20261120T090000Z', 'DURATION:PT30M', ...Array(max).fill('BEGIN:VALARM'), ...Array(max).fill('END:VALARM'), 'SUMMARY:Deep'),
      ['BEGIN:VTIMEZONE', 'TZID:Long', 'BEGIN:STANDARD', 'DTSTART:19700101T000000', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0100', ...dates(max).map((d) => `RDATE:${d.slice(0, -1)}`), 'END:STANDARD', 'END:VTIMEZONE'].join('\r\n'),
      // Just within: 4 000 dates, each given twice, are 4 000 occurrences, each once.
      vevent('UID:twice', 'DTSTART:20261101T090000Z', 'DURATION:PT30M', `RDATE:${[...dates(4_000, Date.UTC(2026, 10, 2, 9)), ...dates(4_000, Date.UTC(2026, 10, 2, 9))].join(',')}`, 'SUMMARY:Twice'),
      vevent('UID:ok', 'DTSTART:20261120T100000Z', 'DURATION:PT1H', 'SUMMARY:Kept'),
    ),
  );
  assert.equal(cal.events, 5);
  assert.deepEqual(cal.found, [
    { code: 'calendar_component_too_long', values: { component: 'VTIMEZONE', max } },
    { code: 'calendar_component_too_long', values: { component: 'VEVENT', max } },
    { code: 'calendar_component_too_long', values: { component: 'VEVENT', max } },
    { code: 'calendar_component_too_long', values: { component: 'VEVENT', max } },
  ]);
  assert.equal(cal.problems[1], `a VEVENT has more than ${max} lines or dates: it is left out`);
  assert.deepEqual(
    cal.meetingsBetween(...day('2026-11-20'), 'UTC').map((m) => [iso(m.startMs), m.summary]),
    [
      ['2026-11-20T09:00:00.000Z', 'Twice'],
      ['2026-11-20T10:00:00.000Z', 'Kept'],
    ],
  );
  assert.equal(cal.meetingsBetween(Date.parse('2026-11-01T00:00:00Z'), Date.parse('2038-01-01T00:00:00Z'), 'UTC').filter((m) => m.summary === 'Twice').length, 4_001, 'DTSTART and the 4 000 dates, each once');
});

test('a file of more than 1 000 time zones keeps the first 1 000; times in the others are read in your zone, said once', () => {
  const max = CALENDAR_LIMITS.maxZones;
  assert.equal(max, 1_000, 'docs/calendar.md "Limits"');
  const zone = (i: number): string => ['BEGIN:VTIMEZONE', `TZID:Zone ${i}`, 'BEGIN:STANDARD', 'DTSTART:19700101T000000', 'TZOFFSETFROM:+0300', 'TZOFFSETTO:+0300', 'END:STANDARD', 'END:VTIMEZONE'].join('\r\n');
  const cal = parseCalendar(
    ics(
      ...Array.from({ length: max + 50 }, (_, i) => zone(i)),
      vevent('UID:kept', 'DTSTART;TZID=Zone 999:20261120T090000', 'DURATION:PT1H', 'SUMMARY:Kept zone'),
      vevent('UID:past', 'DTSTART;TZID=Zone 1000:20261120T120000', 'DURATION:PT1H', 'SUMMARY:Past the zones'),
    ),
  );
  assert.deepEqual(
    cal.meetingsBetween(...day('2026-11-20'), 'UTC').map((m) => [iso(m.startMs), m.summary]),
    [
      ['2026-11-20T06:00:00.000Z', 'Kept zone'],
      ['2026-11-20T12:00:00.000Z', 'Past the zones'],
    ],
  );
  assert.deepEqual(cal.found, [
    { code: 'calendar_zones_cut', values: { max } },
    { code: 'calendar_zone_unknown', values: { zone: 'Zone 1000' } },
  ]);
  assert.equal(cal.problems[0], `more than ${max} time zones: the times in the others are read in your zone`);
});

test('an RDATE of PERIOD values begins an occurrence at each period, lasting the event', () => {
  const cal = parseCalendar(ics(vevent('UID:p', 'DTSTART:20261101T090000Z', 'DURATION:PT30M', 'RDATE;VALUE=PERIOD:20261120T160000Z/PT1H,20261120T180000Z/20261120T183000Z', 'SUMMARY:Period')));
  assert.deepEqual(
    cal.meetingsBetween(...day('2026-11-20'), 'UTC').map((m) => [iso(m.startMs), iso(m.endMs)]),
    [
      ['2026-11-20T16:00:00.000Z', '2026-11-20T16:30:00.000Z'],
      ['2026-11-20T18:00:00.000Z', '2026-11-20T18:30:00.000Z'],
    ],
  );
  assert.deepEqual(cal.problems, []);
});
