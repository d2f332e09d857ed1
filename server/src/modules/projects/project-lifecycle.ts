// A project's life across the modules that keep its rows and objects. Each such module registers
// one section here (its *.lifecycle.ts, from its *.module.ts): the tables it owns with the columns
// an archive carries and those it leaves out (each with why), how its rows and objects are written
// into an archive and read back, and what it clears when the project is deleted. A section reads
// and writes only through its own module's repository.
//
// The backup module owns the archive (its format, staging, the export's snapshot and the import's
// transaction) and implements the writer and reader below; it iterates the sections in order and
// knows none of their tables. ProjectsService.delete runs the sections' deletes, last first.
import type { TxClient } from '../../db/client';
import { isUuid } from '../../platform/ids';
import type { ProjectRow } from './projects.tables';

export type ArchiveRow = Record<string, unknown>;

/** One table of a module, as archives treat it. */
export interface CarriedTable {
  /** The columns an archive carries (a sealed one is opened for the archive and sealed again on import). */
  carried: readonly string[];
  /**
   * Each column it does not carry, with why; or one why for the whole table (none of its rows are
   * carried). A column in neither list fails test/backup/carried-columns.test.ts.
   */
  leftOut: Readonly<Record<string, string>> | string;
}

/** What an export gives a section: the snapshot, and where its part of the archive goes. */
export interface SectionWriter {
  /** One repeatable-read, read-only transaction shared by every section: one view of the project. */
  readonly tx: TxClient;
  readonly projectId: string;
  /** A JSON value (rows) under `key` of this section's part of the archive; written after every afterSnapshot step. */
  put(key: string, value: unknown): void;
  /** An object of the object store, streamed into the archive after the snapshot: the member name to keep in the rows. */
  object(storeKey: string): string;
  /** A member this section writes itself (now, or in an afterSnapshot step) at `path`, in the export's private staging folder. */
  file(): { member: string; path: string };
  /** Work that needs no snapshot (reading many objects, zipping), done after it ends and before anything is written. */
  afterSnapshot(step: () => Promise<void>): void;
  /** Adds to one of the manifest's counts (files, end_users, tables, rows, …). */
  count(what: string, n: number): void;
  /** Something the archive does not carry, named so its owner knows. */
  warn(message: string): void;
}

/** What an import gives a section: the one transaction of the import, and its part of the archive. */
export interface SectionReader {
  /** Every section's rows go in this transaction: all or nothing. */
  readonly tx: TxClient;
  readonly projectId: string;
  /** The account the import gives the project to. */
  readonly ownerId: string;
  /** The rows under `key`: [] when absent (an archive from before the key); refused when not a list of objects. */
  rows(key: string): ArchiveRow[];
  /** The one row under `key`, or null when absent or null; refused when not an object. */
  row(key: string): ArchiveRow | null;
  /** The unpacked file of a member the rows name; refused when the archive does not hold it. */
  file(member: unknown): string;
  /**
   * Puts a member into the object store under `storeKey`, once every section's rows are in (before
   * the transaction commits); removed again when the import fails.
   */
  storeObject(member: unknown, storeKey: string, contentType: string): void;
  /** What the import changed on the way (a domain imported unverified), told to the operator. */
  warn(message: string): void;
}

export interface ProjectLifecycle {
  /** The section's name in archives (lowercase letters, digits, hyphens): the module's folder. */
  name: string;
  /** Sections whose rows this one's refer to: imported (and exported) before it, deleted after it. */
  after?: readonly string[];
  /** Every table the module owns, by name. */
  tables: Readonly<Record<string, CarriedTable>>;
  export(out: SectionWriter): Promise<void>;
  /** Refuses (LifecycleError) what clashes with this platform before writing, then writes its rows. */
  import(input: SectionReader): Promise<void>;
  /** When the project is deleted, before its rows go (they go with the project's row, by cascade). */
  delete?(project: ProjectRow): Promise<void>;
}

/** A section refuses: the message says what and what to do; shown as it is (prefixed by the import). */
export class LifecycleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LifecycleError';
  }
}

/** An id the archive gives, checked before it names a row or a key in the object store. */
export function requireUuid(value: unknown, field: string): string {
  if (typeof value !== 'string' || !isUuid(value)) throw new LifecycleError(`${field} is not a uuid`);
  return value;
}

const NAME = /^[a-z][a-z0-9-]*$/;

export class ProjectLifecycles {
  private readonly sections = new Map<string, ProjectLifecycle>();
  private order: ProjectLifecycle[] | undefined;

  register(section: ProjectLifecycle): void {
    if (!NAME.test(section.name)) throw new Error(`a lifecycle section's name must be lowercase letters, digits and hyphens: ${section.name}`);
    if (this.sections.has(section.name)) throw new Error(`the lifecycle section ${section.name} is registered twice`);
    this.sections.set(section.name, section);
    this.order = undefined;
  }

  /**
   * Every section, each after the ones it names in `after`; among those free to go, by name (the
   * same order whatever order the modules registered in).
   */
  ordered(): readonly ProjectLifecycle[] {
    if (this.order) return this.order;
    for (const s of this.sections.values())
      for (const a of s.after ?? []) if (!this.sections.has(a)) throw new Error(`the lifecycle section ${s.name} comes after ${a}, which no module registered`);
    const done = new Set<string>();
    const order: ProjectLifecycle[] = [];
    while (order.length < this.sections.size) {
      const next = [...this.sections.values()]
        .filter((s) => !done.has(s.name) && (s.after ?? []).every((a) => done.has(a)))
        .sort((a, b) => (a.name < b.name ? -1 : 1))[0];
      if (!next) throw new Error(`the lifecycle sections' order has a circle: ${[...this.sections.keys()].filter((n) => !done.has(n)).join(', ')}`);
      done.add(next.name);
      order.push(next);
    }
    return (this.order = order);
  }

  get(name: string): ProjectLifecycle | undefined {
    return this.sections.get(name);
  }
}
