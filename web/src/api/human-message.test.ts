import { humanMessage } from './human-message';

it.each([
  ['body/password must NOT have fewer than 8 characters', 'Password must NOT have fewer than 8 characters'],
  ['body/new_password: Password must be at least 8 characters', 'Password must be at least 8 characters'],
  ['body/password: Password is too common; choose one that is harder to guess', 'Password is too common; choose one that is harder to guess'],
  ['body/email must match format "email"', 'Email must match format "email"'],
  ['body/projectName must not be empty', 'Project name must not be empty'],
  ['body/site_url must be an http(s) URL without query, fragment or credentials', 'Site URL must be an http(s) URL without query, fragment or credentials'],
  ['body/mfa_code must NOT have more than 32 characters', 'MFA code must NOT have more than 32 characters'],
  ['body/allowed_origins/0 must be an origin', 'Allowed origins #1 must be an origin'],
  ["body must have required property 'email'", 'Email is required'],
  ["body/metadata must have required property 'display_name'", 'Metadata display name is required'],
  ['body must be object', 'The request must be object'],
  ['querystring/limit must be <= 100', 'Limit must be <= 100'],
  ['params/table must be at most 63 bytes (UTF-8)', 'Table must be at most 63 bytes (UTF-8)'],
  ['body/avatar (the file name) must not contain NUL characters', 'Avatar (the file name) must not contain NUL characters'],
  ['body/name must be string, body/email must match format "email"', 'Name must be string, Email must match format "email"'],
])('%s -> %s', (server, shown) => {
  expect(humanMessage(server)).toBe(shown);
});

it.each([
  'Subdomain is already taken',
  'mfa',
  'invalid token',
  'Somebody, body and soul',
  'The request body is too large',
])('leaves a message without validator paths as it is: %s', (message) => {
  expect(humanMessage(message)).toBe(message);
});
