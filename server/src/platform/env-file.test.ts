import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EnvFileError, envFileProblem, loadEnvFile } from './env-file';

test.each([
  ['empty', ''],
  ['comments and blank lines', '# Hostbase\n\n   \n  # indented\n'],
  ['assignments, export, spaces, CRLF', 'PORT=3000\r\nexport HOST=0.0.0.0\n  LOG_LEVEL = info\nEMPTY=\n'],
  ['quoted values, one spanning lines', 'A="x y"\nB=\'z\'\nKEY="-----BEGIN\nline\n-----END"\nC=1\n'],
  ['a value that holds = and #', 'SMTP_URL=smtps://u:p=q@h:465 # trailing\n'],
])('well-formed: %s', (_, text) => {
  expect(envFileProblem(text)).toBeUndefined();
});

test.each([
  ['a line with no =', 'PORT=3000\nJWT_SECRET s3cret\n', 'line 2 is not NAME=value (or a # comment)'],
  ['a name that is not a name', '1PORT=3000\n', 'line 1 is not NAME=value (or a # comment)'],
  ['an unclosed quote', 'A=1\nB="open\nC=2\n', 'line 2 opens a " quoted value that is never closed'],
])('malformed: %s', (_, text, problem) => {
  expect(envFileProblem(text)).toBe(problem);
});

describe('loadEnvFile', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-envfile-'));
  test('a missing file is no error and sets nothing', () => {
    expect(loadEnvFile(path.join(dir, 'absent.env'))).toBe(false);
  });

  // Jest gives each test file its own copy of process.env, so which values win is checked on a
  // real server process (test/server-start.test.ts); here, that Node's loader gets the file or not.
  test('a well-formed file goes to process.loadEnvFile', () => {
    const file = path.join(dir, 'good.env');
    fs.writeFileSync(file, 'HB_ENVFILE_A=from-file\n');
    const load = jest.spyOn(process, 'loadEnvFile').mockImplementation(() => undefined);
    try {
      expect(loadEnvFile(file)).toBe(true);
      expect(load).toHaveBeenCalledWith(file);
    } finally {
      load.mockRestore();
    }
  });

  test('a malformed file throws with the file and line, loads nothing, and never echoes the line', () => {
    const file = path.join(dir, 'bad.env');
    fs.writeFileSync(file, 'HB_ENVFILE_B=set-before-the-bad-line\nHB_ENVFILE_A hunter2\n');
    const load = jest.spyOn(process, 'loadEnvFile').mockImplementation(() => undefined);
    try {
      expect(() => loadEnvFile(file)).toThrow(EnvFileError);
      expect(() => loadEnvFile(file)).toThrow(`${file}: line 2 is not NAME=value`);
      expect(() => loadEnvFile(file)).not.toThrow(/hunter2/);
      expect(load).not.toHaveBeenCalled();
    } finally {
      load.mockRestore();
    }
  });

  test('a directory in its place is a clear error, not a crash', () => {
    const file = path.join(dir, 'a-directory.env');
    fs.mkdirSync(file);
    expect(() => loadEnvFile(file)).toThrow(`${file} cannot be read`);
  });
});

test('.env.example, copied as it is, is a well-formed .env', () => {
  const example = fs.readFileSync(path.resolve(__dirname, '../../../.env.example'), 'utf8');
  expect(envFileProblem(example)).toBeUndefined();
});
