// Writes each prerendered public page (src/prerender.tsx) into the built shell (its stylesheet
// inlined), as
// dist/prerendered/<page>.html (index.html for /): the server answers those routes with it
// (server/src/http/web.ts); every other route keeps the empty shell, index.html.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { createServer } from 'vite';

interface PrerenderModule {
  PRERENDERED_PAGES: string[];
  render(url: string): string;
}

/**
 * The entry's stylesheets inlined: the first paint waits for no request but the page's own. The
 * server allows each inline block by its hash (security-headers.ts), so the policy stays strict.
 */
async function inlineStylesheets(html: string, outDir: string): Promise<string> {
  let out = html;
  for (const m of html.matchAll(/<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/g)) {
    const css = await readFile(join(outDir, m[1]), 'utf8');
    if (/<\/style/i.test(css)) throw new Error(`${m[1]} contains </style: it can't be inlined`);
    out = out.replace(m[0], () => `<style>${css}</style>`);
  }
  return out;
}

export async function prerenderPages(webRoot: string, outDir: string): Promise<void> {
  const vite = await createServer({
    root: webRoot,
    configFile: false,
    plugins: [react()],
    appType: 'custom',
    logLevel: 'error',
    server: { middlewareMode: true, hmr: false, ws: false },
  });
  try {
    const mod = (await vite.ssrLoadModule('/src/prerender.tsx')) as PrerenderModule;
    const shell = await inlineStylesheets(await readFile(join(outDir, 'index.html'), 'utf8'), outDir);
    if (!shell.includes('<div id="root"></div>')) throw new Error('index.html has no empty <div id="root"></div> to fill');
    await mkdir(join(outDir, 'prerendered'), { recursive: true });
    for (const url of mod.PRERENDERED_PAGES) {
      const html = mod.render(url);
      // The console's Content-Security-Policy blocks style attributes: such a page can't be prerendered.
      if (/\sstyle="/.test(html)) throw new Error(`prerendered ${url} has a style attribute, which the page's policy would block`);
      const name = url === '/' ? 'index' : url.slice(1);
      await writeFile(join(outDir, 'prerendered', `${name}.html`), shell.replace('<div id="root"></div>', `<div id="root">${html}</div>`));
    }
  } finally {
    await vite.close();
  }
}
