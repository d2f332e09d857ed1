// Brotli and gzip copies of the built text assets (x.js -> x.js.br, x.js.gz), written once at build
// time at the highest levels: the server picks one per request by Accept-Encoding
// (server/src/http/web-assets.ts) and never compresses a console file while answering.
// Run by after-build.mts.
import { brotliCompress, constants, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|md|xml|webmanifest)$/i;
/** Below this a compressed copy saves less than a packet. */
const MIN_BYTES = 256;

const br = promisify(brotliCompress);
const gz = promisify(gzip);

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of await readdir(dir)) {
    if (name === '.vite') continue;
    const p = join(dir, name);
    if ((await stat(p)).isDirectory()) out.push(...(await files(p)));
    else out.push(p);
  }
  return out;
}

/** Writes the .br and .gz copies of every compressible file under outDir. */
export async function precompressDir(outDir: string): Promise<void> {
  const targets = (await files(outDir)).filter((f) => COMPRESSIBLE.test(f));
  await Promise.all(
    targets.map(async (file) => {
      const raw = await readFile(file);
      if (raw.length < MIN_BYTES) return;
      const [b, g] = await Promise.all([
        br(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
        gz(raw, { level: 9 }),
      ]);
      // A copy no smaller than the file is never worth choosing.
      if (b.length < raw.length) await writeFile(`${file}.br`, b);
      if (g.length < raw.length) await writeFile(`${file}.gz`, g);
    }),
  );
}
