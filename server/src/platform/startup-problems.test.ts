import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkDatabaseUrl, databaseProblem, folderProblem, redactUrl } from './startup-problems';

test('a database URL is shown with its password as ***, parsed or not', () => {
  expect(redactUrl('postgres://app:s3cret@db.internal:5432/hostbase')).toBe('postgres://app:***@db.internal:5432/hostbase');
  expect(redactUrl('postgres//app:s3cret@db')).toBe('postgres//app:***@db');
  expect(redactUrl('postgres://db.internal/hostbase')).toBe('postgres://db.internal/hostbase');
});

test('DATABASE_URL must be a postgres URL with a host', () => {
  expect(() => checkDatabaseUrl('postgres://app:pw@db/x')).not.toThrow();
  expect(() => checkDatabaseUrl('postgresql://db/x')).not.toThrow();
  expect(() => checkDatabaseUrl('mysql://app:pw@db/x')).toThrow('DATABASE_URL is not a PostgreSQL URL');
  expect(() => checkDatabaseUrl('base')).toThrow('got "base"');
});

test('what the database answered is said, naming DATABASE_URL; an error that is not about reaching it is left alone', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
  expect(databaseProblem('postgres://a:pw@h:6543/d', refused)?.message).toContain('DATABASE_URL=postgres://a:***@h:6543/d: nothing accepts connections at h:6543');
  const auth = Object.assign(new Error('password authentication failed for user "a"'), { code: '28P01' });
  expect(databaseProblem('postgres://a:pw@h/d', auth)?.message).toContain('refused the user or password');
  const missing = Object.assign(new Error('database "d" does not exist'), { code: '3D000' });
  expect(databaseProblem('postgres://a:pw@h/d', missing)?.message).toContain('database "d" does not exist on h:5432');
  expect(databaseProblem('postgres://a:pw@h/d', Object.assign(new Error('syntax error'), { code: '42601' }))).toBeUndefined();
});

test('a folder this user may not write is named, with its owner when that is someone else', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-folder-'));
  const err = Object.assign(new Error(`EACCES: permission denied, mkdir '${dir}'`), { code: 'EACCES', syscall: 'mkdir', path: dir });
  const message = folderProblem(err)?.message ?? '';
  expect(message).toContain(`cannot mkdir ${dir}: permission denied for ${os.userInfo().username}`);
  expect(message).toContain('DATA_DIR');
  expect(folderProblem(Object.assign(new Error('x'), { code: 'ENOENT', path: dir }))).toBeUndefined();
});
