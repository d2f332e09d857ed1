// Where dynamic sites run when several API instances share one database (SITE_RUNNER=lease).
//
// One instance at a time holds the runner lease (the single row of site_runner_lease: its id, the
// URL other instances reach it at, INSTANCE_URL, and an expiry it renews every third of the
// lease). Only the holder starts sites' processes (its local runtime: the sandbox, or Docker).
// Every other instance's gateway proxies a dynamic site's requests to the holder, which serves
// them as it serves its own; deploys and rollbacks on another instance ask the holder to start
// (and retire) the deployment over the same private HTTP port. So a site runs once, whichever
// instance a request or a deploy lands on.
//
// Instance to instance calls carry a token derived from JWT_SECRET (shared by all instances): a
// request from a client with a wrong or missing token is never taken for an instance's. A
// forwarded request is never forwarded again (two instances that disagree on the holder for a
// moment answer 503 rather than bounce it).
//
// A holder that stops (SIGTERM) stops its sites and gives the lease back: the next request on any
// instance claims it. One that dies outright (kill -9, a lost host) loses it when it expires
// (leaseMs, 15 s): until then its sites answer 502/503. A holder that cannot renew in time
// stops its sites, since another instance may have taken over.
import crypto from 'node:crypto';
import http from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Database } from '../../../db/client';
import { RuntimeStartError, type RuntimeKind, type EnsureOptions, type Runtime, type RuntimeStats, type SiteSpec, type Upstream } from './runtime';
import type { RuntimeLogSink } from './runtime-logs';

export const DEFAULT_RUNNER_LEASE_MS = 15_000;
export const PEER_HEADER = 'x-hostbase-peer';
const PEER_PATH = '/_hostbase/runner/';

/** The token instances show each other (derived from the shared JWT_SECRET). */
export function peerTokenOf(secret: string): string {
  return crypto.createHmac('sha256', secret).update('hostbase site runner peer v1').digest('base64url');
}

export function isPeerRequest(headers: http.IncomingHttpHeaders, token: string | undefined): boolean {
  const got = headers[PEER_HEADER];
  if (!token || typeof got !== 'string' || got.length !== token.length) return false;
  return crypto.timingSafeEqual(Buffer.from(got), Buffer.from(token));
}

export interface LeasedRuntimeOptions {
  /** The runtime this instance runs sites on when it holds the lease. */
  local: Runtime;
  database: Database;
  log: FastifyBaseLogger;
  instanceId: string;
  /** How other instances reach this one (INSTANCE_URL). */
  url: string;
  secret: string;
  /** lease: claims the lease when it is free; gateway: never runs sites, always proxies. */
  mode: 'lease' | 'gateway';
  leaseMs?: number;
  /** The sites' output in the database: read here whoever runs them. */
  sharedLogs?: RuntimeLogSink;
  /** On the holder, for a peer's deploy: the deployment's spec, its files made local; undefined when it does not exist. */
  specFor(projectId: string, deploymentId: string): Promise<SiteSpec | undefined>;
}

interface Holder {
  instanceId: string;
  url: string;
}

export class LeasedRuntime implements Runtime {
  readonly name: string;
  readonly token: string;
  private holding = false;
  private heldUntil = 0;
  private seen?: { at: number; holder: Holder | undefined };
  private timer?: NodeJS.Timeout;
  private closed = false;
  private claiming?: Promise<boolean>;

  constructor(private readonly o: LeasedRuntimeOptions) {
    this.name = `${o.local.name} (${o.mode === 'lease' ? 'runner lease' : 'gateway only'})`;
    this.token = peerTokenOf(o.secret);
  }

  private get leaseMs(): number {
    return this.o.leaseMs ?? DEFAULT_RUNNER_LEASE_MS;
  }

  /** Claims the lease if it is free, and keeps renewing it (or keeps trying) until close(). */
  async start(): Promise<void> {
    if (this.o.mode !== 'lease') return;
    await this.renew();
    this.timer = setInterval(() => void this.renew(), Math.max(500, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
  }

  /** True when this instance holds the lease now. */
  get isRunner(): boolean {
    return this.holding && Date.now() < this.heldUntil;
  }

  private claim(): Promise<boolean> {
    if (this.o.mode !== 'lease' || this.closed) return Promise.resolve(false);
    this.claiming ??= (async () => {
      const asked = Date.now();
      try {
        const rows = await this.o.database.query<{ instance_id: string }>(
          `INSERT INTO site_runner_lease (id, instance_id, url, expires_at) VALUES (1, $1, $2, now() + $3 * interval '1 millisecond')
           ON CONFLICT (id) DO UPDATE SET instance_id = EXCLUDED.instance_id, url = EXCLUDED.url, expires_at = EXCLUDED.expires_at
           WHERE site_runner_lease.instance_id = EXCLUDED.instance_id OR site_runner_lease.expires_at < now()
           RETURNING instance_id`,
          [this.o.instanceId, this.o.url, this.leaseMs],
        );
        const won = rows.length === 1;
        if (won) {
          if (!this.holding) this.o.log.info({ instanceId: this.o.instanceId, url: this.o.url }, 'hosting: this instance runs the dynamic sites (runner lease)');
          this.holding = true;
          // Counted from before the statement: this side never believes in a lease longer than the database does.
          this.heldUntil = asked + this.leaseMs - 1000;
          this.seen = { at: Date.now(), holder: { instanceId: this.o.instanceId, url: this.o.url } };
        }
        return won;
      } finally {
        this.claiming = undefined;
      }
    })();
    return this.claiming;
  }

  private async renew(): Promise<void> {
    const was = this.holding;
    let won = false;
    try {
      won = await this.claim();
    } catch (err) {
      this.o.log.warn({ err }, 'hosting: the runner lease could not be renewed');
      if (Date.now() < this.heldUntil) return; // still ours for now
    }
    if (was && !won) {
      this.holding = false;
      this.o.log.warn('hosting: this instance lost the runner lease: stopping its sites (another instance runs them now)');
      await (this.o.local.stopAll ?? this.o.local.close).call(this.o.local).catch((err: unknown) => this.o.log.error({ err }, 'hosting: stopping sites failed'));
    }
  }

  /** The instance that runs sites now (this one after a successful claim), from a view at most a second old. */
  private async holder(): Promise<Holder | undefined> {
    if (this.isRunner) return { instanceId: this.o.instanceId, url: this.o.url };
    if (this.seen && Date.now() - this.seen.at < 1000) return this.seen.holder;
    const rows = await this.o.database.query<{ instance_id: string; url: string; valid: boolean }>(
      'SELECT instance_id, url, expires_at > now() AS valid FROM site_runner_lease WHERE id = 1',
    );
    let holder: Holder | undefined = rows[0]?.valid ? { instanceId: rows[0].instance_id, url: rows[0].url } : undefined;
    if (!holder || holder.instanceId === this.o.instanceId) {
      // Free, expired, or ours from before a restart: take it (lease mode only).
      holder = (await this.claim()) ? { instanceId: this.o.instanceId, url: this.o.url } : undefined;
    }
    this.seen = { at: Date.now(), holder };
    return holder;
  }

  refusal(kind: RuntimeKind): string | undefined {
    // A gateway-only instance cannot judge the runner's host: the runner's start answers instead.
    return this.o.mode === 'lease' ? this.o.local.refusal(kind) : undefined;
  }

  async ensure(spec: SiteSpec, opts: EnsureOptions = {}): Promise<Upstream> {
    const holder = await this.holder();
    if (!holder) throw new RuntimeStartError('No instance runs hosted sites right now (no instance holds the runner lease; see SITE_RUNNER).', '');
    if (holder.instanceId === this.o.instanceId) return this.o.local.ensure(spec, opts);
    if (opts.forwarded) throw new RuntimeStartError('The instances disagree on which one runs hosted sites; try again in a moment.', '');
    if (!opts.forRequest) {
      const answer = await this.call(holder, 'ensure', { projectId: spec.projectId, deploymentId: spec.deploymentId });
      if (answer.status === 422) {
        const body = answer.json as { message: string; log: string };
        throw new RuntimeStartError(body.message, body.log);
      }
      if (answer.status === 404 && !(answer.json as { message?: string } | undefined)?.message?.startsWith('Deployment')) {
        // The runner did not recognise this instance's token: the instances do not share JWT_SECRET.
        this.o.log.error({ runner: holder.url }, 'hosting: the instance that runs sites refused this one: do all instances share JWT_SECRET?');
      }
      if (answer.status !== 200) throw new RuntimeStartError(`The instance that runs hosted sites could not start this one (${answer.status}).`, '');
    }
    const target = new URL(holder.url);
    return { host: target.hostname.replace(/^\[|\]$/g, ''), port: Number(target.port || 80), peer: this.token };
  }

  async retire(projectId: string, keepDeploymentId?: string): Promise<void> {
    // Anything this instance still runs from before (a lost lease) goes too.
    await this.o.local.retire(projectId, keepDeploymentId);
    const holder = await this.holder();
    if (holder && holder.instanceId !== this.o.instanceId) {
      const answer = await this.call(holder, 'retire', { projectId, keepDeploymentId });
      if (answer.status !== 200) this.o.log.warn({ projectId, status: answer.status }, 'hosting: the runner could not retire a site');
    }
  }

  running(projectId: string) {
    return this.isRunner ? this.o.local.running(projectId) : undefined;
  }

  projects() {
    // Only the runner has processes; what a lost lease left here is retired with its project.
    return this.o.local.projects();
  }

  async hasProcess(projectId: string): Promise<boolean> {
    const holder = await this.holder();
    if (!holder) return false;
    if (holder.instanceId === this.o.instanceId) return this.o.local.hasProcess(projectId);
    const answer = await this.call(holder, 'has-process', { projectId }).catch(() => undefined);
    return answer?.status === 200 && (answer.json as { running?: boolean }).running === true;
  }

  async stats(projectId: string): Promise<RuntimeStats | undefined> {
    const holder = await this.holder();
    if (!holder) return undefined;
    if (holder.instanceId === this.o.instanceId) return this.o.local.stats(projectId);
    const answer = await this.call(holder, 'stats', { projectId }).catch(() => undefined);
    return answer?.status === 200 ? ((answer.json as { stats?: RuntimeStats }).stats ?? undefined) : undefined;
  }

  async logs(deploymentId: string): Promise<string> {
    if (this.o.sharedLogs) return this.o.sharedLogs.read(deploymentId);
    const holder = await this.holder();
    if (!holder) return '';
    if (holder.instanceId === this.o.instanceId) return this.o.local.logs(deploymentId);
    const answer = await this.call(holder, 'logs', { deploymentId }).catch(() => undefined);
    return answer?.status === 200 ? (answer.json as { log: string }).log : '';
  }

  async stopAll(): Promise<void> {
    await (this.o.local.stopAll ?? this.o.local.close).call(this.o.local);
  }

  /** Stops the sites, then gives the lease back so that another instance takes over at once. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.o.local.close();
    if (this.holding) {
      this.holding = false;
      await this.o.database
        .query('DELETE FROM site_runner_lease WHERE id = 1 AND instance_id = $1', [this.o.instanceId])
        .catch((err: unknown) => this.o.log.warn({ err }, 'hosting: the runner lease could not be given back (it expires by itself)'));
    }
  }

  private call(holder: Holder, op: string, body: unknown): Promise<{ status: number; json: unknown }> {
    const payload = Buffer.from(JSON.stringify(body));
    const url = new URL(PEER_PATH + op, holder.url);
    return new Promise((resolve, reject) => {
      const req = http.request(
        url,
        { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': payload.length, [PEER_HEADER]: this.token } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            let json: unknown;
            try {
              json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            } catch {
              json = undefined;
            }
            resolve({ status: res.statusCode ?? 502, json });
          });
          res.on('error', reject);
        },
      );
      // A start waits for the site to listen (15 s at most) and may first fetch its files.
      req.setTimeout(60_000, () => req.destroy(new Error('the runner did not answer in time')));
      req.on('error', (err) => {
        this.seen = undefined; // look again next time: the holder may be gone
        reject(new RuntimeStartError(`The instance that runs hosted sites (${holder.url}) cannot be reached: ${err.message}`, ''));
      });
      req.end(payload);
    });
  }

  /** The holder's side of call(): a plain route outside the contract, for instances only. */
  registerPeerRoutes(app: FastifyInstance): void {
    app.post<{ Params: { op: string }; Body: Record<string, string | undefined> }>(`${PEER_PATH}:op`, async (req, reply) => {
      // Anyone else sees nothing here at all.
      if (!isPeerRequest(req.headers, this.token)) return reply.code(404).send({ message: 'Not found' });
      const body = req.body ?? {};
      const str = (k: string) => (typeof body[k] === 'string' ? body[k] : undefined);
      const projectId = str('projectId');
      switch (req.params.op) {
        case 'ensure': {
          if (!this.isRunner) return reply.code(409).send({ message: 'This instance does not run hosted sites now.' });
          const spec = projectId && str('deploymentId') ? await this.o.specFor(projectId, str('deploymentId')!) : undefined;
          if (!spec) return reply.code(404).send({ message: 'Deployment not found' });
          try {
            await this.o.local.ensure(spec);
            return { ok: true };
          } catch (err) {
            if (err instanceof RuntimeStartError) return reply.code(422).send({ message: err.message, log: err.log });
            throw err;
          }
        }
        case 'retire':
          if (!projectId) return reply.code(400).send({ message: 'projectId is required' });
          await this.o.local.retire(projectId, str('keepDeploymentId'));
          return { ok: true };
        case 'has-process':
          if (!projectId) return reply.code(400).send({ message: 'projectId is required' });
          return { running: await this.o.local.hasProcess(projectId) };
        case 'stats':
          if (!projectId) return reply.code(400).send({ message: 'projectId is required' });
          return { stats: (await this.o.local.stats(projectId)) ?? null };
        case 'logs':
          return { log: str('deploymentId') ? await this.o.local.logs(str('deploymentId')!) : '' };
        default:
          return reply.code(404).send({ message: 'Not found' });
      }
    });
  }
}
