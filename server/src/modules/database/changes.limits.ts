// The bounds of live changes on one instance (changes.ts): streams, queues, batches, timers.
export const CHANGES_LIMITS = {
  /** Open streams of one project on one instance; more is a 429. */
  perProject: 100,
  /**
   * Open streams of one client of a project on one instance: a signed-in end user, or an address
   * for callers with only the key (which ships inside apps: anyone may hold it). Keeps one caller
   * from taking every stream the project may have.
   */
  perClient: 10,
  /** Open streams on one instance, all projects. */
  total: 10_000,
  /** Events waiting for one slow client; past it the stream ends with an `error` event. */
  queuedEvents: 1000,
  /** Notices of one table waiting to be read; past it the table's streams end (reconnect and re-read). */
  pendingNotices: 10_000,
  /** The same in bytes of notice text (a notice may be up to 8 kB), per table and for the whole instance. */
  pendingBytes: 4 * 1024 * 1024,
  totalPendingBytes: 64 * 1024 * 1024,
  /** Notices read together: one statement per distinct caller reads the rows of up to this many. */
  batch: 100,
  /** Statements of one table's batch at once (one per distinct end user of its subscribers). */
  readConcurrency: 4,
  keepAliveMs: 25_000,
  /** How often each stream's credentials are checked again (key rotated, project deleted, token revoked or expired). */
  recheckMs: 60_000,
  /** How long the platform's record of a table's access rule is reused for deletes. */
  accessCacheMs: 1000,
  /** A stream ended while its client reads nothing is cut after this long. */
  endGraceMs: 10_000,
};
export type ChangesLimits = typeof CHANGES_LIMITS;
