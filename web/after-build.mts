// What the build does once the bundle and the public files are written, in this order: the public
// pages prerendered into the shell (prerender.mts), then every text file's brotli and gzip copies,
// the prerendered pages included (precompress.mts).
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
      await precompressDir(outDir);
    },
  };
}
