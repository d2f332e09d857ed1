// The activity entry a request will leave, carried through the request in an AsyncLocalStorage
// so the repository that makes the change can write the entry inside its own transaction.
//
// Same transaction: a repository that runs the change through transactionWithActivity() writes
// the entry in that transaction (the change and its entry commit or roll back together). Today:
// createProject / createProjectAlias, deleteProject and rotateProjectKey (projects.repository.ts),
// deleteObjects (storage.repository.ts deleteOwned), deleteAuthUser and updateAuthSettings
// (end-users.repository.ts delete, saveSettings). Such an entry stays if the call fails after
// the commit (the change stays too): the log says what was changed, not what was answered.
// Every other change is written by the recorder (activity.recorder.ts) after the handler
// succeeded and before the answer is sent, awaited: the gap is a crash (or a failed insert)
// between the change's commit and the entry's insert, which leaves a change without its entry;
// the insert failing is logged and the answer still goes out, since the change did happen and a
// client told otherwise would repeat it. Moving an operation into the first group is a matter
// of its repository calling transactionWithActivity().
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '../../db/client';
import type { OperationId } from '../../generated/operations';
import type { NewActivity } from './activity.tables';
import { insertEntry } from './activity.repository';

export type ActivityNotes = Record<string, string | number>;

export interface PendingActivity {
  operationId: string;
  /** The developer; public sign-in calls learn it on success (activityActor). */
  accountId: string | undefined;
  projectId: string | null;
  ip: string;
  /** The readable summary, made when the entry is written (it may read the notes); null: nothing changed. */
  describe: (notes: ActivityNotes) => string | null;
  /** What the call learned that the summary wants (a file's name, how many were deleted). */
  notes: ActivityNotes;
  written: boolean;
  /** The request is over: its context is no longer needed (runWithActivity sets it). */
  end?: () => void;
}

const current = new AsyncLocalStorage<PendingActivity>();
/** Changes under way. An AsyncLocalStorage in use runs async hooks on every promise of the process, reads included: it is on only while some change is under way. */
let open = 0;

/**
 * Runs fn in the entry's context. When fn returns a promise the context ends when it settles;
 * otherwise (a callback hook: the rest of the request runs inside) the caller calls pending.end()
 * when the request is over.
 */
export function runWithActivity<T>(pending: PendingActivity, fn: () => T): T {
  let ended = false;
  open += 1;
  pending.end = () => {
    if (ended) return;
    ended = true;
    open -= 1;
    if (open === 0) current.disable();
  };
  const result = current.run(pending, fn);
  if (result instanceof Promise) void result.then(pending.end, pending.end);
  return result;
}

/** The account a public call (register, login, reset link) turned out to act for. */
export function activityActor(accountId: string): void {
  const pending = current.getStore();
  if (pending) pending.accountId = accountId;
}

/** The project the call made (createProject learns its id only when it exists). */
export function activityProject(projectId: string): void {
  const pending = current.getStore();
  if (pending) pending.projectId = projectId;
}

export function activityNote(key: string, value: string | number): void {
  const pending = current.getStore();
  if (pending) pending.notes[key] = value;
}

/** The row to insert, or undefined when there is no actor or nothing changed. */
export function entryOf(pending: PendingActivity): NewActivity | undefined {
  if (!pending.accountId) return undefined;
  const summary = pending.describe(pending.notes);
  if (summary === null) return undefined;
  return { accountId: pending.accountId, projectId: pending.projectId, operationId: pending.operationId, summary, ip: pending.ip };
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * db.transaction(fn) that also writes the request's activity entry in it, after fn, when the
 * request is one of `operations` (the calls whose change this transaction is: a repository method
 * another operation calls on the side, e.g. as a clean-up, must not write that one's entry early).
 * changed: what fn's result says (false: nothing changed, no entry; it may name the project made).
 * Marked written only once committed: a rolled-back attempt leaves the entry to a later one (or to
 * none, when the call fails).
 */
export async function transactionWithActivity<T>(db: Db, operations: readonly OperationId[], fn: (tx: Tx) => Promise<T>, changed?: (result: T) => boolean): Promise<T> {
  const store = current.getStore();
  const pending = store && (operations as readonly string[]).includes(store.operationId) ? store : undefined;
  let wrote = false;
  const result = await db.transaction(async (tx) => {
    const value = await fn(tx);
    if (pending && !pending.written && (changed?.(value) ?? true)) {
      const entry = entryOf(pending);
      if (entry) await insertEntry(tx as unknown as Db, entry);
      wrote = entry !== undefined;
    }
    return value;
  });
  if (pending && wrote) pending.written = true;
  return result;
}
