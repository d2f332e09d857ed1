// A folder as a zip archive, for `hostbase deploy` (no dependency: deflate and CRC-32 from node:zlib).
// Symbolic links are followed only while they stay inside the folder; one that leads out of it (or
// nowhere) stops the deploy: its target could be any file of the machine.
// Installed dependencies are left out (node_modules, a Python virtualenv): the platform installs
// them again from the lockfile when it builds, and they are large, machine-specific and full of
// links out of the folder (a virtualenv's bin/python). vendor/ is kept: with it a PHP upload is
// served as it is, without composer.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export class ZipRefused extends Error {}

export interface ZipEntry {
  /** The path inside the archive, with "/" separators. */
  name: string;
  /** The file on disk (its real path). */
  file: string;
}

const SKIP = new Set(['.git', '.DS_Store', '.hostbase']);
/** Folders of installed dependencies, rebuilt on the server. */
const DEPENDENCIES = new Set(['node_modules', '.venv']);

/** A virtualenv under any name (venv, env…): Python writes pyvenv.cfg at its top. */
const isVirtualenv = (dir: string) => fs.existsSync(path.join(dir, 'pyvenv.cfg'));

/**
 * The files of `folder`, following links that stay inside it. The dependency folders left out are
 * added to `skipped` ("node_modules/", "api/.venv/").
 */
export function listFolder(folder: string, skipped: string[] = []): ZipEntry[] {
  const root = fs.realpathSync(folder);
  if (!fs.statSync(root).isDirectory()) throw new ZipRefused(`${folder} is not a folder`);
  const inside = (real: string) => real === root || real.startsWith(root + path.sep);
  const out: ZipEntry[] = [];
  const walk = (dir: string, prefix: string, seen: Set<string>) => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (SKIP.has(d.name)) continue;
      const abs = path.join(dir, d.name);
      const name = prefix + d.name;
      // A linked node_modules (pnpm, a workspace) is left out too, wherever it leads.
      if ((DEPENDENCIES.has(d.name) && (d.isDirectory() || d.isSymbolicLink())) || (d.isDirectory() && isVirtualenv(abs))) {
        skipped.push(name + '/');
        continue;
      }
      let real = abs;
      if (d.isSymbolicLink()) {
        try {
          real = fs.realpathSync(abs);
        } catch {
          throw new ZipRefused(`${name} is a symbolic link to nothing; remove it or make it a file`);
        }
        if (!inside(real)) throw new ZipRefused(`${name} is a symbolic link out of the folder (to ${real}); refusing to deploy files from outside ${root}`);
      }
      const st = fs.statSync(real);
      if (st.isDirectory()) {
        if (seen.has(real)) throw new ZipRefused(`${name} is a symbolic link that loops back to ${path.relative(root, real) || '.'}`);
        walk(real, name + '/', new Set([...seen, real]));
      } else if (st.isFile()) out.push({ name, file: real });
      else throw new ZipRefused(`${name} is not a regular file or folder`);
    }
  };
  walk(root, '', new Set([root]));
  return out;
}

function dosTime(d: Date): [number, number] {
  const time = (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2);
  const date = (Math.max(0, d.getFullYear() - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate();
  return [time, date];
}

/** The entries as one zip archive (deflated, UTF-8 names). */
export function zipEntries(entries: ZipEntry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const data = fs.readFileSync(e.file);
    const packed = zlib.deflateRawSync(data);
    const crc = zlib.crc32(data);
    const name = Buffer.from(e.name, 'utf8');
    const [time, date] = dosTime(fs.statSync(e.file).mtime);
    if (offset + packed.length > 0xffffffff) throw new ZipRefused('the folder is too large for one archive (4 GiB)');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(0x031e, 4); // made by: Unix, 3.0
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(0x0800, 8);
    dir.writeUInt16LE(8, 10);
    dir.writeUInt16LE(time, 12);
    dir.writeUInt16LE(date, 14);
    dir.writeUInt32LE(crc, 16);
    dir.writeUInt32LE(packed.length, 20);
    dir.writeUInt32LE(data.length, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    dir.writeUInt32LE(offset, 42);
    parts.push(local, name, packed);
    central.push(dir, name);
    offset += local.length + name.length + packed.length;
  }
  if (entries.length > 0xffff) throw new ZipRefused('the folder has too many files for one archive (65,535)');
  const size = central.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, ...central, end]);
}
