// The README is the front door and docs/ holds the rest: the two commands it opens with are the
// ones package.json and CI run, every link between the guides leads to a file (and a heading)
// that exists, and the documentation page links only guides that exist.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..');
const read = (rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');
const guides = fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

const anchors = (markdown: string) => new Set([...markdown.matchAll(/^#+ (.+)$/gm)].map((m) => slug(m[1])));

test('the README opens with the two commands: npm start serves the platform, npm test runs the tests as CI does', () => {
  const readme = read('README.md');
  const first = /```sh\n([\s\S]*?)```/.exec(readme)![1];
  expect(first.split('\n').filter(Boolean).map((l) => l.split('#')[0].trim())).toEqual(['npm start', 'npm test']);
  expect(readme.indexOf('npm start')).toBeLessThan(readme.split('\n').slice(0, 20).join('\n').length);
  const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
  expect(pkg.scripts.start).toBe('node scripts/start.mjs');
  expect(pkg.scripts.test).toBe('node scripts/test.mjs');
  // Both set a fresh clone up themselves.
  expect(read('scripts/start.mjs')).toMatch(/npm', \['install'/);
  expect(read('scripts/test.mjs')).toMatch(/npm', \['install'/);
  expect(read('.ci/run')).toMatch(/^npm test$/m);
});

test.each(['README.md', 'packages/client/README.md', ...guides])('every relative link of %s leads to a file and heading that exist', (file) => {
  const text = read(file);
  const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((l) => !/^[a-z]+:/.test(l));
  if (file === 'README.md') expect(links.length).toBeGreaterThan(10);
  for (const link of links) {
    const [target, anchor] = link.split('#');
    const resolved = target ? path.join(path.dirname(path.join(root, file)), target) : path.join(root, file);
    expect({ link, exists: fs.existsSync(resolved) }).toEqual({ link, exists: true });
    if (anchor && resolved.endsWith('.md')) expect({ link, anchor: anchors(fs.readFileSync(resolved, 'utf8')).has(anchor) }).toEqual({ link, anchor: true });
  }
});

test('the documentation page links each guide of docs/, and the README lists every one', () => {
  const page = read('web/src/features/marketing/Docs.tsx');
  const linked = [...page.matchAll(/file: '([\w-]+)'/g)].map((m) => `docs/${m[1]}.md`);
  expect(linked.sort()).toEqual([...guides].sort());
  const readme = read('README.md');
  for (const g of guides) expect(readme).toContain(`](${g})`);
});

test('the notice the Email screen shows names a heading that exists', () => {
  const notice = read('web/src/features/mail/MailServersNotice.tsx');
  const [, heading, file] = /see "([^"]+)" in (docs\/[\w-]+\.md)/.exec(notice)!;
  expect(anchors(read(file)).has(slug(heading))).toBe(true);
});
