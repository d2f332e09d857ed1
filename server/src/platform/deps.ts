// What services are built from: every side effect behind an interface (immich's habit), so a
// test chooses which parts are real.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Database, Db } from '../db/client';
import type { Clock } from './clock';
import type { Jwt } from './jwt';
import type { Mailer } from './mailer';
import type { RateLimiter } from './rate-limit';
import type { PasswordHasher, SecretBox } from './crypto';
import type { ObjectStore } from './object-store/object-store';
import type { LookupCache } from './lookup-cache';
import type { AccountEvents } from './account-events';

export interface Deps {
  config: Config;
  database: Database;
  db: Db;
  clock: Clock;
  /** Signs and verifies every JWT (HS256, the clock above). */
  jwt: Jwt;
  mailer: Mailer;
  log: FastifyBaseLogger;
  rateLimiter: RateLimiter;
  passwords: PasswordHasher;
  secrets: SecretBox;
  /** Bytes of stored files (and anything else kept as objects): DATA_DIR or S3. */
  objectStore: ObjectStore;
  /** Keys, end users and accounts kept in memory, dropped by the database's notices. */
  lookups: LookupCache;
  /** Failed deploys, crashes, DNS, quotas, security changes: heard by errors and notifications. */
  events: AccountEvents;
}
