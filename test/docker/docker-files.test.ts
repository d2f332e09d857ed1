// docker/: no Docker engine or Kubernetes cluster runs here, so the files are checked by what does:
// Debian's docker-compose renders and validates the compose file (no engine needed), nginx -t
// checks the proxy's rendered template, yamllint every YAML file, bash -n the mail entrypoint; the
// Dockerfile's sources must exist in the repository; the Kubernetes manifests are parsed and their
// required fields and security settings checked here (kubeconform is not available). A missing
// tool skips its check with a message, and fails it under CI (.ci/run installs them).
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse, parseAllDocuments } from 'yaml';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const DOCKER = path.join(ROOT, 'docker');
const read = (p: string) => fs.readFileSync(path.join(ROOT, p), 'utf8');

function tool(name: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The tool, or undefined after saying why its check is skipped (a failure under CI). */
function need(name: string): string | undefined {
  const found = tool(name);
  if (!found) {
    if (process.env.CI) throw new Error(`CI is set and ${name} is not installed (.ci/run installs it)`);
    console.warn(`docker files: ${name} is not installed; its check is skipped (apt-get install ${name === 'docker-compose' ? 'docker-compose' : name})`);
  }
  return found;
}

const ENV = { PLATFORM_DOMAIN: 'hostbase.example.com', JWT_SECRET: 'x'.repeat(43), POSTGRES_PASSWORD: 'pg-secret', MINIO_ROOT_PASSWORD: 'minio-secret' };

describe('docker/compose.yml', () => {
  test('docker-compose config renders it: every service, wired to one database, store and secret', async () => {
    const compose = need('docker-compose');
    if (!compose) return;
    const { stdout } = await run(compose, ['-f', 'compose.yml', 'config'], { cwd: DOCKER, env: { PATH: process.env.PATH!, ...ENV } });
    const config = parse(stdout) as { services: Record<string, { environment?: Record<string, string>; ports?: { target: number }[]; build?: { target: string } }> };
    expect(Object.keys(config.services).sort()).toEqual(['api1', 'api2', 'mail', 'minio', 'postgres', 'proxy']);
    for (const name of ['api1', 'api2']) {
      const env = config.services[name].environment!;
      expect(config.services[name].build?.target).toBe('app');
      expect(env).toMatchObject({
        DATABASE_URL: 'postgres://postgres:pg-secret@postgres:5432/hostbase',
        S3_ENDPOINT: 'http://minio:9000',
        S3_SECRET_KEY: 'minio-secret',
        JWT_SECRET: ENV.JWT_SECRET,
        PUBLIC_URL: 'https://hostbase.example.com',
        TRUST_PROXY: 'true',
        // Dynamic sites run on one instance; the other reaches it here (runtime.leased.ts).
        INSTANCE_URL: `http://${name}:3000`,
      });
    }
    expect(config.services.mail.build?.target).toBe('mail');
    expect(config.services.mail.environment).toMatchObject({ JWT_SECRET: ENV.JWT_SECRET, MAIL_HOST: 'mail.hostbase.example.com' });
    expect(config.services.mail.ports!.map((p) => Number(p.target)).sort((a, b) => a - b)).toEqual([25, 465, 993]);
    expect(config.services.proxy.ports!.map((p) => Number(p.target)).sort((a, b) => a - b)).toEqual([80, 443]);
  });

  test('a missing secret stops it with the variable to set', async () => {
    const compose = need('docker-compose');
    if (!compose) return;
    const { JWT_SECRET: _omitted, ...rest } = ENV;
    await expect(run(compose, ['-f', 'compose.yml', 'config'], { cwd: DOCKER, env: { PATH: process.env.PATH!, ...rest } })).rejects.toMatchObject({
      stderr: expect.stringContaining('set JWT_SECRET'),
    });
  });
});

test('the proxy template passes nginx -t once rendered (wildcard server name, TLS, WebSockets)', async () => {
  const nginx = need('nginx');
  const openssl = need('openssl');
  if (!nginx || !openssl) return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-nginx-'));
  try {
    execFileSync(openssl, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=*.hostbase.example.com', '-keyout', `${dir}/privkey.pem`, '-out', `${dir}/fullchain.pem`], { stdio: 'ignore' });
    const template = read('docker/nginx.conf.template');
    expect(template).toContain('server_name ${PLATFORM_DOMAIN} *.${PLATFORM_DOMAIN};');
    // What the nginx image's envsubst does (only variables set in its environment), and loopback
    // for the instances' names, which nginx -t would otherwise resolve.
    const rendered = template
      .replaceAll('${PLATFORM_DOMAIN}', 'hostbase.example.com')
      .replace(/server api[12]:3000/g, 'server 127.0.0.1:3000')
      .replaceAll('/etc/nginx/certs', dir)
      .replaceAll('/var/www/acme', dir);
    expect(rendered).not.toContain('${');
    fs.writeFileSync(path.join(dir, 'site.conf'), rendered);
    fs.writeFileSync(
      path.join(dir, 'nginx.conf'),
      `pid ${dir}/nginx.pid; error_log ${dir}/error.log; events {} http { access_log off; client_body_temp_path ${dir}; proxy_temp_path ${dir}; include ${dir}/site.conf; }`,
    );
    const res = await run(nginx, ['-t', '-c', path.join(dir, 'nginx.conf'), '-p', dir]);
    expect(res.stderr).toContain('test is successful');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('every YAML file passes yamllint (relaxed: errors fail, long lines do not)', async () => {
  const yamllint = need('yamllint');
  if (!yamllint) return;
  const files = ['docker/compose.yml', 'docker/k8s/platform.yaml', 'docker/k8s/site-runtime.yaml'];
  const res = await run(yamllint, ['-f', 'parsable', '-d', 'relaxed', ...files], { cwd: ROOT });
  expect(res.stdout.split('\n').filter((l) => l.includes('[error]'))).toEqual([]);
});

describe('docker/Dockerfile', () => {
  const text = read('docker/Dockerfile');

  test('has the build, app and mail stages, and copies only what exists or the build makes', () => {
    const stages = [...text.matchAll(/^FROM \S+ AS (\S+)/gm)].map((m) => m[1]);
    expect(stages).toEqual(['build', 'app', 'mail']);
    const built = new Set(['/app/node_modules', '/app/dist', '/app/web/dist']);
    for (const m of text.matchAll(/^COPY (--from=\S+ )?(.+)$/gm)) {
      const parts = m[2].trim().split(/\s+/);
      const sources = parts.slice(0, -1);
      for (const src of sources) {
        if (m[1]) {
          if (!built.has(src)) expect(fs.existsSync(path.join(ROOT, src.replace(/^\/app\//, '')))).toBe(true);
        } else if (src !== '.') {
          expect(fs.existsSync(path.join(ROOT, src))).toBe(true);
        }
      }
    }
    // What CMD runs is built from a source that exists.
    for (const m of text.matchAll(/dist\/(server\/src\/\S+)\.js/g)) expect(fs.existsSync(path.join(ROOT, `${m[1]}.ts`))).toBe(true);
  });

  test("runs the server as npm start does (scripts/server-process.mjs: node's flags and MALLOC_ARENA_MAX)", () => {
    const shared = read('scripts/server-process.mjs');
    const flags = JSON.parse(/SERVER_NODE_FLAGS = (\[[^\]]*\])/.exec(shared)![1].replace(/'/g, '"')) as string[];
    const env = /SERVER_ENV = \{ MALLOC_ARENA_MAX: '(\d+)' \}/.exec(shared)![1];
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(text)![1]) as string[];
    expect(cmd).toEqual(['node', ...flags, 'dist/server/src/server.js']);
    expect(text).toMatch(new RegExp(`^ENV .*\\bMALLOC_ARENA_MAX=${env}\\b`, 'm'));
  });

  test('the mail entrypoint is an executable bash script that parses', async () => {
    const file = path.join(DOCKER, 'mail-entrypoint.sh');
    expect(fs.statSync(file).mode & 0o111).not.toBe(0);
    await run('bash', ['-n', file]);
    for (const script of ['setup.sh', 'start.sh', 'stop.sh', 'sync-dkim-keys.sh']) expect(fs.readFileSync(file, 'utf8')).toContain(`scripts/mail/${script}`);
  });

  test('hadolint, when installed (not a Debian or npm package)', async () => {
    const hadolint = tool('hadolint');
    if (!hadolint) {
      console.warn('docker files: hadolint is not installed (not a Debian or npm package; its PyPI wrappers are out of reach here): the Dockerfile was not linted by it');
      return;
    }
    await run(hadolint, [path.join(DOCKER, 'Dockerfile')]);
  });
});

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  [key: string]: unknown;
}

interface Container {
  name: string;
  image: string;
  env?: { name: string; value?: string }[];
  securityContext?: { allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean; capabilities?: { drop?: string[] } };
  resources?: { limits?: { memory?: string; cpu?: string } };
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
}

function manifests(file: string): K8sObject[] {
  const docs = parseAllDocuments(read(file));
  for (const d of docs) expect(d.errors).toEqual([]);
  return docs.map((d) => d.toJS() as K8sObject);
}

const CLUSTER_SCOPED = new Set(['Namespace']);
const KNOWN: Record<string, string> = {
  Namespace: 'v1', Secret: 'v1', ConfigMap: 'v1', Service: 'v1', Pod: 'v1',
  Deployment: 'apps/v1', Ingress: 'networking.k8s.io/v1', NetworkPolicy: 'networking.k8s.io/v1',
};

describe('docker/k8s', () => {
  const platform = manifests('docker/k8s/platform.yaml');
  const sites = manifests('docker/k8s/site-runtime.yaml');

  test('every object has a known kind with its apiVersion, a DNS-1123 name and a namespace that the files make', () => {
    const all = [...platform, ...sites];
    const namespaces = new Set(all.filter((o) => o.kind === 'Namespace').map((o) => o.metadata.name));
    for (const o of all) {
      expect(KNOWN[o.kind]).toBe(o.apiVersion);
      expect(o.metadata.name).toMatch(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/);
      if (!CLUSTER_SCOPED.has(o.kind)) expect(namespaces.has(o.metadata.namespace!)).toBe(true);
    }
  });

  test('the platform: a Deployment whose selector matches its pods, probes on /api/health, a Service and a wildcard-TLS Ingress', () => {
    const dep = platform.find((o) => o.kind === 'Deployment')!;
    const spec = dep.spec as { replicas: number; selector: { matchLabels: Record<string, string> }; template: { metadata: { labels: Record<string, string> }; spec: { containers: (Container & { readinessProbe: { httpGet: { path: string } } })[] } } };
    expect(spec.replicas).toBeGreaterThanOrEqual(2);
    expect(spec.template.metadata.labels).toMatchObject(spec.selector.matchLabels);
    const [c] = spec.template.spec.containers;
    expect(c.readinessProbe.httpGet.path).toBe('/api/health');
    expect(c.resources?.limits?.memory).toBeDefined();
    const svc = platform.find((o) => o.kind === 'Service')!;
    expect(spec.template.metadata.labels).toMatchObject((svc.spec as { selector: Record<string, string> }).selector);
    const config = platform.find((o) => o.kind === 'ConfigMap')! as unknown as { data: Record<string, string> };
    const domain = config.data.PLATFORM_DOMAIN;
    expect(config.data.TRUST_PROXY).toBe('true');
    const ingress = platform.find((o) => o.kind === 'Ingress')!.spec as { tls: { hosts: string[]; secretName: string }[]; rules: { host: string; http: { paths: { backend: { service: { name: string } } }[] } }[] };
    expect(ingress.tls[0].hosts).toEqual([domain, `*.${domain}`]);
    expect(ingress.rules.map((r) => r.host)).toEqual([domain, `*.${domain}`]);
    for (const r of ingress.rules) expect(r.http.paths[0].backend.service.name).toBe(svc.metadata.name);
    const secret = platform.find((o) => o.kind === 'Secret')! as unknown as { stringData: Record<string, string> };
    expect(Object.keys(secret.stringData)).toEqual(expect.arrayContaining(['DATABASE_URL', 'JWT_SECRET', 'S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY']));
  });

  test('a site pod is held to the Docker adapter\'s rules', () => {
    const docker = read('server/src/modules/hosting/runtime/runtime.docker.ts');
    const port = /const PORT = (\d+);/.exec(docker)![1];
    expect(docker).toContain("WorkingDir: '/site'");
    expect(docker).toContain("'/tmp': 'rw,noexec,size=64m'");
    const pod = sites.find((o) => o.kind === 'Pod')! as unknown as {
      metadata: { labels: Record<string, string> };
      spec: Record<string, unknown> & { securityContext: Record<string, unknown>; initContainers: Container[]; containers: (Container & { workingDir: string; ports: { containerPort: number }[] })[]; volumes: { name: string; emptyDir?: { medium?: string; sizeLimit?: string } }[] };
    };
    expect(pod.spec).toMatchObject({ automountServiceAccountToken: false, enableServiceLinks: false, hostNetwork: false, hostPID: false, hostIPC: false });
    expect(pod.spec.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    expect(pod.spec.securityContext.runAsUser).toBeGreaterThanOrEqual(1_900_000_000);
    for (const c of [...pod.spec.initContainers, ...pod.spec.containers]) {
      expect(c.securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
      expect(c.resources?.limits?.memory).toBeDefined();
    }
    const [site] = pod.spec.containers;
    expect(site.workingDir).toBe('/site');
    expect(site.ports[0].containerPort).toBe(Number(port));
    expect(site.env).toEqual([{ name: 'PORT', value: port }, { name: 'NODE_ENV', value: 'production' }]);
    expect(site.volumeMounts).toContainEqual({ name: 'site', mountPath: '/site', readOnly: true });
    expect(pod.spec.volumes.find((v) => v.name === 'tmp')!.emptyDir).toEqual({ medium: 'Memory', sizeLimit: '64Mi' });

    const svc = sites.find((o) => o.kind === 'Service')!.spec as { selector: Record<string, string> };
    expect(pod.metadata.labels).toMatchObject(svc.selector);
  });

  test('sites: everything denied unless allowed; in only from the platform, out only to DNS and public addresses', () => {
    const policies = sites.filter((o) => o.kind === 'NetworkPolicy').map((o) => o.spec as { podSelector: Record<string, unknown>; policyTypes: string[]; ingress?: unknown[]; egress?: { to: { ipBlock?: { cidr: string; except: string[] } }[] }[] });
    expect(policies).toContainEqual({ podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
    const sitePolicy = policies.find((p) => p.ingress)!;
    expect(JSON.stringify(sitePolicy.ingress)).toContain('"app":"hostbase-api"');
    const blocks = sitePolicy.egress!.flatMap((e) => e.to).filter((t) => t.ipBlock).map((t) => t.ipBlock!);
    expect(blocks).toHaveLength(1);
    expect(blocks[0].cidr).toBe('0.0.0.0/0');
    expect(blocks[0].except).toEqual(expect.arrayContaining(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '169.254.0.0/16', '127.0.0.0/8']));
    const ns = sites.find((o) => o.kind === 'Namespace')!;
    expect(ns.metadata.labels).toMatchObject({ 'pod-security.kubernetes.io/enforce': 'restricted' });
  });
});
