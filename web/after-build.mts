// What the build does once the bundle and the public files are written, in this order: the public
// pages prerendered into the shell (prerender.mts), the repository's guides (docs/*.md) copied to
// dist/docs/ so the documentation page can link to them on any platform, then every text file's
// brotli and gzip copies, the prerendered pages and the guides included (precompress.mts).
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import { precompressDir } from './precompress.mjs';
import { prerenderPages } from './prerender.mjs';

export function afterBuild(): Plugin {
  let root = '';
  let outDir = '';
  return {
    name: 'hostbase-after-build',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await prerenderPages(root, outDir);
      await copyGuides(resolve(root, '..', 'docs'), resolve(outDir, 'docs'));
      await precompressDir(outDir);
    },
  };
}

async function copyGuides(from: string, to: string): Promise<void> {
  const guides = (await readdir(from).catch(() => [] as string[])).filter((f) => f.endsWith('.md'));
  await mkdir(to, { recursive: true });
  for (const f of guides) await copyFile(resolve(from, f), resolve(to, f));
}
