import { mailboxUsername, normalizeSubdomain, validateDomain, validateMailboxPassword, validateMailboxUsername } from './validation';

it('checks sending domains with the spec messages', () => {
  expect(validateDomain('')).toBe('Domain name is required');
  expect(validateDomain('localhost')).toBe('Please enter a valid domain name (e.g., example.com)');
  expect(validateDomain('example.c')).toBe('Please enter a valid domain name (e.g., example.com)');
  expect(validateDomain('mail.example.com')).toBeNull();
});

it('checks mailbox passwords in order', () => {
  expect(validateMailboxPassword('Ab1!')).toBe('Password must be at least 8 characters');
  expect(validateMailboxPassword('abcdefg1!')).toBe('Must contain one uppercase letter');
  expect(validateMailboxPassword('ABCDEFG1!')).toBe('Must contain one lowercase letter');
  expect(validateMailboxPassword('Abcdefgh!')).toBe('Must contain one number');
  expect(validateMailboxPassword('Abcdefg12')).toBe('Must contain one special character');
  expect(validateMailboxPassword('Abcdefg1!')).toBeNull();
});

it('takes the mailbox username before any @ and refuses duplicates', () => {
  expect(mailboxUsername('ada@x.com')).toBe('ada');
  expect(validateMailboxUsername('@x.com')).toBe('Please enter a valid username');
  expect(validateMailboxUsername('ada', ['ada@example.com'], 'example.com')).toBe('This email already exists');
  expect(validateMailboxUsername('bob', ['ada@example.com'], 'example.com')).toBeNull();
});

it('normalizes typed subdomains', () => {
  expect(normalizeSubdomain('My App_1!')).toBe('myapp1');
});
