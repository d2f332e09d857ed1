// A runtime for Node, PHP and Flask sites without a sandbox: it starts nothing, but does what a
// start needs first (the deployment's files laid out, its entry read), then answers every request
// with the entry file's bytes. A deployment whose entry is not one of its files fails to start, as
// a real process would (the gateway answers 502): what an archive that lost the entry did.
import fsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Runtime } from '../../server/src/modules/hosting';

type Spec = Parameters<Runtime['ensure']>[0];

export class EntryRuntime implements Runtime {
  readonly name = 'entry';
  readonly started: { projectId: string; entry: string }[] = [];
  private readonly servers = new Map<string, { deploymentId: string; server: http.Server; port: number }>();

  refusal(): undefined {
    return undefined;
  }

  async ensure(spec: Spec) {
    const running = this.servers.get(spec.projectId);
    if (running?.deploymentId === spec.deploymentId) return { host: '127.0.0.1', port: running.port };
    await spec.prepare?.();
    const body = await fsp.readFile(path.join(spec.dir, spec.entry)).catch(() => {
      throw new Error(`cannot start ${JSON.stringify(spec.entry)}: no such file in the deployment`);
    });
    const server = http.createServer((_req, res) => res.end(body));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    this.started.push({ projectId: spec.projectId, entry: spec.entry });
    this.servers.set(spec.projectId, { deploymentId: spec.deploymentId, server, port });
    return { host: '127.0.0.1', port };
  }

  projects() {
    return [...this.servers].map(([projectId, s]) => ({ projectId, deploymentId: s.deploymentId, envVersion: 0 }));
  }

  async hasProcess(projectId: string) {
    return this.servers.has(projectId);
  }

  async retire(projectId: string, keepDeploymentId?: string) {
    const s = this.servers.get(projectId);
    if (!s || s.deploymentId === keepDeploymentId) return;
    this.servers.delete(projectId);
    await new Promise((resolve) => s.server.close(resolve));
  }

  running(projectId: string) {
    const s = this.servers.get(projectId);
    return s && { deploymentId: s.deploymentId, upstream: { host: '127.0.0.1', port: s.port } };
  }

  async stats() {
    return undefined;
  }

  async logs() {
    return '';
  }

  async close() {
    for (const projectId of [...this.servers.keys()]) await this.retire(projectId);
  }
}
