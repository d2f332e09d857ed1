import { guessType } from './guess-type';

const guess = (files: Record<string, string>) => guessType(new Set(Object.keys(files)), async (n) => files[n]);
const pkg = (deps: Record<string, string>, extra: Record<string, string> = {}) => ({ 'package.json': JSON.stringify({ dependencies: deps }), ...extra });

test.each([
  ['built files', { 'index.html': '<p>hi</p>', 'app.js': '' }, 'Static'],
  ['PHP by composer.json, before its asset package.json', { 'composer.json': '{}', ...pkg({ vite: '5' }) }, 'PHP'],
  ['PHP by a top-level .php file', { 'index.php': '<?php' }, 'PHP'],
  ['Flask by requirements.txt', { 'requirements.txt': 'flask', 'app.py': '' }, 'Flask'],
  ['Next.js', pkg({ next: '15', react: '19' }), 'Next.js'],
  ['Vite', pkg({ vite: '8' }), 'Vite'],
  ['React', pkg({ react: '19' }), 'React'],
  ['a Node app', pkg({ fastify: '5' }, { 'server.js': '' }), 'Node'],
  ['a page with its tooling', pkg({ prettier: '3' }, { 'index.html': '' }), 'Static'],
  ['unreadable package.json', { 'package.json': '{', 'server.js': '' }, 'Node'],
] as const)('%s', async (_name, files, type) => {
  expect(await guess(files as Record<string, string>)).toBe(type);
});
