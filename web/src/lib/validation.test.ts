import { checkOrigin, mailboxUsername, normalizeSubdomain, parseOrigins, validateDomain, validateMailboxPassword, validateMailboxUsername, validateNewPassword, validateSiteUrl } from './validation';

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

it('accepts exact origins only, one per line', () => {
  expect(checkOrigin('https://app.example.com/')).toEqual({ origin: 'https://app.example.com' });
  expect(checkOrigin('http://localhost:5173')).toEqual({ origin: 'http://localhost:5173' });
  expect(checkOrigin('HTTPS://APP.example.com')).toEqual({ origin: 'https://app.example.com' });
  for (const bad of ['app.example.com', 'https://*.example.com', 'ftp://x.example.com', 'https://a.example.com/path', 'https://u:p@a.example.com', 'https://a.example.com?x=1']) {
    expect(checkOrigin(bad)).toEqual({ error: `"${bad}" is not an origin like https://app.example.com` });
  }
  expect(parseOrigins('\nhttps://a.example.com\nhttps://a.example.com/\n')).toEqual({ origins: ['https://a.example.com'], error: null });
  expect(parseOrigins('https://a.example.com\nnope').error).toBe('Line 2: "nope" is not an origin like https://app.example.com');
  expect(parseOrigins(Array.from({ length: 51 }, (_, i) => `https://a${i}.example.com`).join('\n')).error).toBe('List at most 50 origins');
});

it('checks the site URL and the new end-user password', () => {
  expect(validateSiteUrl('')).toBeNull();
  expect(validateSiteUrl('https://app.example.com/auth')).toBeNull();
  expect(validateSiteUrl('app.example.com')).toBe('Enter a URL like https://app.example.com');
  expect(validateSiteUrl('https://app.example.com/?a=1')).toBe('Enter an http(s) URL without query, fragment or credentials');
  expect(validateNewPassword('1234567', '1234567')).toBe('Password must be at least 8 characters');
  expect(validateNewPassword('12345678', '12345679')).toBe('Passwords do not match');
  expect(validateNewPassword('12345678', '12345678')).toBeNull();
});
