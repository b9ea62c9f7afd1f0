import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixture, problemOf, type Fixture } from './support.ts';

/** Creates activities one minute apart, so later ones are more recently used. */
function create(f: Fixture, names: string[]): void {
  for (const name of names) {
    f.tracker.createActivity(name);
    f.clock.advanceMinutes(1);
  }
}

const names = (f: Fixture, q: string, limit = 20): string[] => f.tracker.searchActivities(q, limit).map((r) => r.activityName);

test('ranks exact, then prefix, then word prefix, then substring', (t) => {
  const f = fixture(t);
  // Created so that recency alone would give the reverse order.
  create(f, ['Code', 'Encode stuff', 'Write code', 'Codebase']);
  assert.deepEqual(names(f, 'code'), ['Code', 'Codebase', 'Write code', 'Encode stuff']);
});

test('is case- and accent-insensitive: "cafe" finds "Café" and "CAFÉ au lait"', (t) => {
  const f = fixture(t);
  create(f, ['Café', 'Tea', 'Le CAFÉ au lait']);
  assert.deepEqual(names(f, 'cafe'), ['Café', 'Le CAFÉ au lait']);
  assert.deepEqual(names(f, 'CAFÉ'), ['Café', 'Le CAFÉ au lait']);
  assert.deepEqual(names(f, 'cafe\u0301'), ['Café', 'Le CAFÉ au lait']);
});

test('breaks ties by most recent use', (t) => {
  const f = fixture(t);
  create(f, ['Alpha one', 'Alpha two', 'Alpha three']);
  assert.deepEqual(names(f, 'alpha'), ['Alpha three', 'Alpha two', 'Alpha one']);
  f.tracker.startActivity({ name: 'Alpha one' });
  f.clock.advanceMinutes(1);
  assert.deepEqual(names(f, 'alpha'), ['Alpha one', 'Alpha three', 'Alpha two']);
  f.tracker.logEntry({ name: 'Alpha two', durationMinutes: 1 });
  assert.deepEqual(names(f, 'alpha'), ['Alpha two', 'Alpha one', 'Alpha three']);
});

test('an empty query lists the most recently used first', (t) => {
  const f = fixture(t);
  create(f, ['A', 'B', 'C']);
  assert.deepEqual(names(f, ''), ['C', 'B', 'A']);
  assert.deepEqual(names(f, '   '), ['C', 'B', 'A']);
  f.tracker.startActivity({ name: 'A' });
  assert.deepEqual(names(f, '', 2), ['A', 'C']);
});

test('returns at most limit results and refuses a limit outside 1–100', (t) => {
  const f = fixture(t);
  create(f, ['Task 1', 'Task 2', 'Task 3', 'My task', 'Multitasking']);
  assert.equal(names(f, 'task', 2).length, 2);
  assert.equal(names(f, 'task', 4).length, 4);
  assert.deepEqual(names(f, 'task', 100), ['Task 3', 'Task 2', 'Task 1', 'My task', 'Multitasking']);
  for (const limit of [0, 101, 1.5, Number.NaN]) {
    assert.equal(problemOf(() => f.tracker.searchActivities('x', limit)).code, 'validation_failed');
  }
});

test('finds word prefixes across punctuation, such as branch names', (t) => {
  const f = fixture(t);
  create(f, ['feature/login-page', 'Relogin', 'Login', 'my login page']);
  assert.deepEqual(names(f, 'login'), ['Login', 'my login page', 'feature/login-page', 'Relogin']);
  assert.deepEqual(names(f, 'login-pa'), ['feature/login-page']);
  assert.deepEqual(names(f, 'page'), ['my login page', 'feature/login-page']);
  assert.deepEqual(names(f, 'in-page'), ['feature/login-page']);
});

test('finds nothing for a query that matches nothing', (t) => {
  const f = fixture(t);
  create(f, ['Alpha']);
  assert.deepEqual(names(f, 'zzz'), []);
  assert.deepEqual(names(f, '%'), []);
  assert.deepEqual(names(f, '_'), []);
});

test('handles queries with characters at the top of Unicode', (t) => {
  const f = fixture(t);
  create(f, ['x\u{10ffff}y', 'x\u{10fffe}', 'ax\u{10ffff}']);
  assert.deepEqual(names(f, 'x\u{10ffff}'), ['x\u{10ffff}y', 'ax\u{10ffff}']);
  assert.deepEqual(names(f, 'x\ud7ff'), []);
});

test('does not treat punctuation in the query as a word break ("c++" is not "c")', (t) => {
  const f = fixture(t);
  create(f, ['Coffee', 'C++ course', 'learn c++']);
  assert.deepEqual(names(f, 'c++'), ['C++ course', 'learn c++']);
});

test('still ranks a word-prefix match above many more recent substring matches', (t) => {
  const f = fixture(t);
  create(f, ['Old ode']);
  f.store.transaction(() => {
    for (let i = 0; i < 600; i++) {
      f.tracker.createActivity(`Encode ${i}`);
      f.clock.advance(1000);
    }
  });
  assert.deepEqual(names(f, 'ode', 3), ['Old ode', 'Encode 599', 'Encode 598']);
  assert.deepEqual(names(f, 'nco', 2), ['Encode 599', 'Encode 598']);
});

test('ranks the exact match first and then by recency when thousands share a prefix', (t) => {
  const f = fixture(t);
  create(f, ['task']);
  f.store.transaction(() => {
    for (let i = 0; i < 2100; i++) {
      f.tracker.createActivity(`Task ${i}`);
      f.clock.advance(1000);
    }
  });
  assert.deepEqual(names(f, 'TASK', 3), ['task', 'Task 2099', 'Task 2098']);
  assert.deepEqual(names(f, 'task 1', 2), ['Task 1', 'Task 1999']);
});
