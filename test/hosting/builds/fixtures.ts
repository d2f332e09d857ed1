// Source trees the build tests deploy, written by code (no node_modules or vendor in git): real
// npm packages from the registry for the JS ones; the Python wheel and the Composer path package
// are made here, so nothing needs another registry.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeArchive } from '../../../server/src/modules/hosting/build/output-archive';

export type Tree = Record<string, string>;

export function writeTree(dir: string, tree: Tree): void {
  for (const [name, text] of Object.entries(tree)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
}

const json = (v: unknown) => JSON.stringify(v, null, 2);

export const viteReact = (marker: string): Tree => ({
  'package.json': json({
    name: 'vite-react-demo', private: true, type: 'module',
    scripts: { dev: 'vite', build: 'vite build' },
    dependencies: { react: '^18.3.0', 'react-dom': '^18.3.0' },
    devDependencies: { vite: '^6.0.0', '@vitejs/plugin-react': '^4.3.0' },
  }),
  'vite.config.js': "import { defineConfig } from 'vite';\nimport react from '@vitejs/plugin-react';\nexport default defineConfig({ plugins: [react()] });\n",
  'index.html': '<!doctype html><html><head><title>demo</title></head><body><div id="root"></div><script type="module" src="/src/main.jsx"></script></body></html>\n',
  'src/main.jsx': `import React from 'react';\nimport { createRoot } from 'react-dom/client';\nfunction App() { return <h1>${marker}</h1>; }\ncreateRoot(document.getElementById('root')).render(<App />);\n`,
});

export const express = (marker: string): Tree => ({
  'package.json': json({ name: 'express-demo', private: true, scripts: { start: 'node server.js' }, dependencies: { express: '^4.18.0' } }),
  'server.js': `const express = require('express');\nconst app = express();\napp.get('/', (req, res) => res.json({ hello: ${JSON.stringify(marker)}, express: require('express/package.json').version }));\napp.listen(process.env.PORT, '127.0.0.1', () => console.log('listening'));\n`,
});

export const nextApp = (marker: string): Tree => ({
  'package.json': json({
    name: 'next-demo', private: true, scripts: { build: 'next build', start: 'next start' },
    dependencies: { next: '^15.0.0', react: '^19.0.0', 'react-dom': '^19.0.0' },
  }),
  'next.config.js': 'module.exports = { images: { unoptimized: true } };\n',
  'app/layout.js': 'export default function RootLayout({ children }) { return <html><body>{children}</body></html>; }\n',
  'app/page.js': `export const dynamic = 'force-dynamic';\nexport default function Page() { return <h1>${marker} {new Date().getFullYear() > 2000 ? 'live' : ''}</h1>; }\n`,
});

/** A wheel: a zip holding the package and its .dist-info (METADATA, WHEEL, RECORD with hashes). */
export async function makeWheel(dir: string, name: string, version: string, module: string): Promise<string> {
  const stage = fs.mkdtempSync(path.join(path.dirname(dir), 'wheel-'));
  const info = `${name}-${version}.dist-info`;
  const files: Tree = {
    [`${name}/__init__.py`]: module,
    [`${info}/METADATA`]: `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n`,
    [`${info}/WHEEL`]: 'Wheel-Version: 1.0\nGenerator: hostbase-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n',
  };
  const hash = (text: string) => `sha256=${crypto.createHash('sha256').update(text).digest('base64url')},${Buffer.byteLength(text)}`;
  files[`${info}/RECORD`] = Object.entries(files).map(([n, t]) => `${n},${hash(t)}`).join('\n') + `\n${info}/RECORD,,\n`;
  writeTree(stage, files);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}-${version}-py3-none-any.whl`);
  await writeArchive(stage, file);
  fs.rmSync(stage, { recursive: true });
  return file;
}

export const flask = (marker: string): Tree => ({
  // Flask comes from Debian's python3-flask (the virtualenv sees the system's packages); the
  // local wheel through --find-links, with no index at all.
  'requirements.txt': '--find-links wheels\nFlask\nhello_greet==1.0.0\n',
  'app.py': `from flask import Flask\nimport hello_greet\napp = Flask(__name__)\n@app.get('/')\ndef index():\n    return {'hello': hello_greet.greet(${JSON.stringify(marker)})}\n`,
});

export const php = (marker: string): Tree => ({
  'composer.json': json({
    name: 'demo/site', require: { 'acme/greeter': '1.0.0' },
    repositories: [{ 'packagist.org': false }, { type: 'path', url: 'packages/greeter' }],
  }),
  'packages/greeter/composer.json': json({ name: 'acme/greeter', version: '1.0.0', autoload: { 'psr-4': { 'Acme\\': 'src/' } } }),
  'packages/greeter/src/Greeter.php': '<?php\nnamespace Acme;\nclass Greeter { public static function greet(string $who): string { return "hello from composer, $who"; } }\n',
  'index.php': `<?php\nrequire __DIR__ . '/vendor/autoload.php';\nheader('content-type: application/json');\necho json_encode(['hello' => Acme\\Greeter::greet(${JSON.stringify(marker)})]);\n`,
});
