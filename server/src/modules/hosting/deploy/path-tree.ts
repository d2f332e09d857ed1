// Finds a name that is both a file and another name's folder (`a` and `a/b`) among a deployment's
// relative, '/'-separated file names (a zip's entries, a manifest's paths), in time linear in the
// names' total length and memory linear in their number. Looking every prefix of every name up
// in a Set costs the square of a name's length (a slice and a hash per '/': one 64 KB zip entry
// name `a/a/a/…` took 0.1 s, a 1 MB manifest of 1 KB paths 0.4 s); a tree of every folder holds
// a Map per folder (20,000 names of 500 folders each: 2 GB). Here the names are split one folder
// level at a time, and only names that still share their folders go on to the next level.
// The work is a generator pausing every PAUSE_EVERY steps (a segment, or a character compared):
// fileAndFolderAsync gives the event loop a turn at each pause (a zip's 20,000 names of 1 KB can
// be ten million segments).

/** Names sharing their first `at` characters (a folder path ending in '/'). */
interface Group {
  at: number;
  names: string[];
}

const PAUSE_EVERY = 100_000;

function* search(all: Iterable<string>): Generator<void, string | undefined> {
  const every = [...all];
  const pending: Group[] = every.length > 1 ? [{ at: 0, names: every }] : [];
  let steps = 0;
  let pauseAt = PAUSE_EVERY;
  for (let group = pending.pop(); group !== undefined; group = pending.pop()) {
    const { names } = group;
    // The folders every name of the group shares are skipped at once (a character comparison
    // each, not a slice and a hash per folder per name).
    const first = names[0];
    let common = first.length;
    for (const name of names) {
      let i = group.at;
      const end = Math.min(common, name.length);
      while (i < end && name.charCodeAt(i) === first.charCodeAt(i)) i++;
      steps += i - group.at + 1;
      common = i;
      if (steps > pauseAt) {
        pauseAt = steps + PAUSE_EVERY;
        yield;
      }
    }
    const slash = common > group.at ? first.lastIndexOf('/', common - 1) : -1;
    const at = slash >= group.at ? slash + 1 : group.at;
    // Segment → the names going on inside it, or null for a file of that name.
    const here = new Map<string, string[] | null>();
    for (const name of names) {
      if (++steps > pauseAt) {
        pauseAt = steps + PAUSE_EVERY;
        yield;
      }
      const slash = name.indexOf('/', at);
      const segment = slash < 0 ? name.slice(at) : name.slice(at, slash);
      const seen = here.get(segment);
      if (slash < 0) {
        if (seen) return name;
        here.set(segment, null);
      } else if (seen === null) return name.slice(0, slash);
      else if (seen) seen.push(name);
      else here.set(segment, [name]);
    }
    // A folder holding one name has nothing in it that could clash.
    for (const [segment, inside] of here) if (inside && inside.length > 1) pending.push({ at: at + segment.length + 1, names: inside });
  }
  return undefined;
}

/** The first name found to be both a file and a folder, or undefined. Duplicates are the caller's. */
export function fileAndFolder(names: Iterable<string>): string | undefined {
  const steps = search(names);
  for (let r = steps.next(); ; r = steps.next()) if (r.done) return r.value;
}

/** The same, letting other work run every PAUSE_EVERY steps. */
export async function fileAndFolderAsync(names: Iterable<string>): Promise<string | undefined> {
  const steps = search(names);
  for (let r = steps.next(); ; r = steps.next()) {
    if (r.done) return r.value;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
