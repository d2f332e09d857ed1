import { cellText, nameProblem, parseInput, primaryKeyFilters, referenceTargets } from './db';

describe('nameProblem (the server rule, checked before the round trip)', () => {
  it.each([
    ['notes', null],
    ['_private', null],
    ['café_ünits', null],
    ['名前', null],
    ['', 'Name is required'],
    ['1st', 'Name must start with a letter or underscore and hold only letters, digits and underscores'],
    ['x; drop table', 'Name must start with a letter or underscore and hold only letters, digits and underscores'],
    ['a"b', 'Name must start with a letter or underscore and hold only letters, digits and underscores'],
    ['pg_x', 'Name must not start with "pg_" or "hb_" (reserved)'],
    ['HB_x', 'Name must not start with "pg_" or "hb_" (reserved)'],
    ['a'.repeat(63), null],
    ['a'.repeat(64), 'Name must be at most 63 bytes (UTF-8)'],
    ['é'.repeat(32), 'Name must be at most 63 bytes (UTF-8)'],
  ])('%j → %j', (name, problem) => expect(nameProblem(name)).toBe(problem));
});

describe('parseInput', () => {
  it.each([
    ['42', 'integer', 42],
    ['-7', 'bigint', -7],
    ['9007199254740993', 'bigint', '9007199254740993'], // past 2^53: sent as text, every digit kept
    ['3.14', 'numeric', 3.14],
    ['0.10', 'numeric', '0.10'],
    ['true', 'boolean', true],
    ['false', 'boolean', false],
    ['{"a":[1,2]}', 'jsonb', { a: [1, 2] }],
    ['"text"', 'jsonb', 'text'],
    ['A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', 'uuid', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'],
    ['2026-11-23T10:00:00Z', 'timestamptz', '2026-11-23T10:00:00Z'],
    ['', 'text', ''],
    ["Robert'); DROP TABLE x;--", 'text', "Robert'); DROP TABLE x;--"],
  ])('%j as %s → %j', (text, type, value) => expect(parseInput(text, type)).toEqual({ ok: true, value }));

  it.each([
    ['1.5', 'integer', 'Enter a whole number'],
    ['ten', 'numeric', 'Enter a number'],
    ['yes', 'boolean', 'Choose true or false'],
    ['{', 'jsonb', 'Enter valid JSON'],
    ['not-a-uuid', 'uuid', 'Enter a UUID (8-4-4-4-12 hex digits)'],
    ['someday', 'timestamptz', 'Enter a date and time, e.g. 2026-11-23T10:00:00Z'],
    ['', 'integer', 'Enter a value, or choose NULL'],
  ])('%j as %s is refused: %s', (text, type, error) => expect(parseInput(text, type)).toEqual({ ok: false, error }));
});

it('primaryKeyFilters picks one row by every primary key column; none without a primary key', () => {
  expect(primaryKeyFilters({ primary_key: ['org', 'id'] }, { org: 'a', id: 3, x: 1 })).toEqual([
    { column: 'org', op: 'eq', value: 'a' },
    { column: 'id', op: 'eq', value: 3 },
  ]);
  expect(primaryKeyFilters({ primary_key: [] }, { x: 1 })).toBeNull();
});

it('cellText shows NULL, JSON and scalars', () => {
  expect([null, undefined, { a: 1 }, [1], true, 0, 'x'].map(cellText)).toEqual(['NULL', 'NULL', '{"a":1}', '[1]', 'true', '0', 'x']);
});

it('referenceTargets lists the primary key and unique columns of the other tables', () => {
  const col = (name: string, primary_key = false, unique = false) => ({ name, type: 'text', nullable: true, primary_key, unique, default: null, references: null });
  const tables = [
    { name: 'a', columns: [col('id', true, true), col('email', false, true), col('note')], primary_key: ['id'], row_count: 0, size_bytes: 0, last_modified: null, access: 'none' as const },
    { name: 'b', columns: [col('id', true, true)], primary_key: ['id'], row_count: 0, size_bytes: 0, last_modified: null, access: 'none' as const },
  ];
  expect(referenceTargets(tables, 'b').map((t) => `${t.table}.${t.column}`)).toEqual(['a.id', 'a.email']);
});
