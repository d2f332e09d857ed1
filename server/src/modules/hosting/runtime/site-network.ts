// A site's way out (SITE_EGRESS=internet, the default): each sandbox's network namespace gets one
// veth link to the host, and one nftables table decides what may cross it:
//  - nothing from a site is delivered to the host itself (its loopback services, the platform's
//    port, PostgreSQL, the mail servers, whatever listens on any of its addresses);
//  - nothing is forwarded to private, loopback, link-local or carrier-grade NAT ranges (other
//    sites, the host's LAN, cloud metadata at 169.254.169.254), except DNS to the host's own
//    resolvers;
//  - no connection is ever opened *into* a site from outside: the gateway reaches it through the
//    unix socket of the sandbox (site-init.cjs), not through this link;
//  - the rest (the public internet) is forwarded and masqueraded.
// Without nftables or iproute2 the sites get no way out at all (SITE_EGRESS=none), never an
// unfiltered one.
import { execFile, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { findTool } from './sandbox';

const run = promisify(execFile);
const TABLE = 'hostbase_sites';
/** Sites' links: host ends are hbs<n>; the /16 holds 16,384 /30 links. */
const PREFIX = 'hbs';
const SUBNET = [10, 231];
const BLOCKED = ['0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24', '192.168.0.0/16', '198.18.0.0/15', '224.0.0.0/4', '240.0.0.0/4'];

export type Egress = 'internet' | 'none';

export class SiteNetwork {
  private next = Math.floor(Math.random() * 16_000);

  private constructor(
    private readonly ip: string,
    private readonly nsenter: string,
  ) {}

  private static installed?: Promise<SiteNetwork | { problem: string }>;

  /** Installs the rules once per process; the reason instead when it cannot be done. */
  static setup(): Promise<SiteNetwork | { problem: string }> {
    SiteNetwork.installed ??= SiteNetwork.install();
    return SiteNetwork.installed;
  }

  private static async install(): Promise<SiteNetwork | { problem: string }> {
    const nft = findTool('nft');
    const ip = findTool('ip');
    const nsenter = findTool('nsenter');
    if (!nft || !ip || !nsenter) return { problem: 'nftables, iproute2 and util-linux are needed for filtered outbound traffic (apt-get install nftables iproute2 util-linux)' };
    const resolvers = nameservers().filter((a) => !a.startsWith('127.'));
    // One nft transaction: declaring, deleting and re-creating the table is atomic, so a restart
    // (or a second instance on this host) never leaves a moment without the filter.
    const rules = `
table inet ${TABLE}
delete table inet ${TABLE}
table inet ${TABLE} {
  chain input {
    type filter hook input priority -10; policy accept;
    iifname "${PREFIX}*" ct state established,related accept
    iifname "${PREFIX}*" drop
  }
  chain forward {
    type filter hook forward priority -10; policy accept;
    oifname "${PREFIX}*" ct state established,related accept
    oifname "${PREFIX}*" drop
    iifname "${PREFIX}*" meta nfproto ipv6 drop
    ${resolvers.length ? `iifname "${PREFIX}*" ip daddr { ${resolvers.join(', ')} } meta l4proto { tcp, udp } th dport 53 accept` : ''}
    iifname "${PREFIX}*" ip daddr { ${BLOCKED.join(', ')} } drop
    iifname "${PREFIX}*" accept
  }
  chain postrouting {
    type nat hook postrouting priority 100; policy accept;
    ip saddr ${SUBNET.join('.')}.0.0/16 oifname != "${PREFIX}*" masquerade
  }
}
`;
    try {
      await new Promise<void>((resolve, reject) => {
        const child = execFile(nft, ['-f', '-'], (err) => (err ? reject(err) : resolve()));
        child.stdin!.end(rules);
      });
      fs.writeFileSync('/proc/sys/net/ipv4/ip_forward', '1');
    } catch (err) {
      const e = err as { stderr?: string; message: string };
      return { problem: `the outbound filter could not be installed (${(e.stderr ?? e.message).trim().split('\n')[0]})` };
    }
    return new SiteNetwork(ip, nsenter);
  }

  /**
   * For a sandbox bwrap started with --info-fd 3 --block-fd 4 (sandbox.ts): links its network
   * namespace once it exists, then lets it run, so the link is up before its first instruction.
   * Safe either way: without the link the sandbox only lacks a way out, and `say` tells its owner.
   */
  async linkSandbox(child: ChildProcess, say: (problem: string) => void): Promise<void> {
    const info = child.stdio[3] as NodeJS.ReadableStream;
    const go = child.stdio[4] as NodeJS.WritableStream;
    go.on('error', () => undefined); // the sandbox may die first
    let text = '';
    for await (const chunk of info) {
      text += chunk.toString();
      if (text.includes('}')) break;
    }
    const pid = Number(/"child-pid":\s*(\d+)/.exec(text)?.[1]);
    if (pid > 0) {
      try {
        await this.attach(pid);
      } catch (err) {
        say((err as Error).message);
      }
    }
    go.end('1');
  }

  /**
   * Gives the network namespace of `pid` its link: eth0 with 10.231.x.y/30 and a default route
   * through the host end. Retries another /30 when one is taken (another instance on this host).
   */
  async attach(pid: number): Promise<void> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const n = this.next++ % 16_384;
      const host = `${PREFIX}${n.toString(16)}`;
      const peer = `hbp${n.toString(16)}`;
      const base = n * 4;
      const addr = (k: number) => `${SUBNET[0]}.${SUBNET[1]}.${(base + k) >> 8}.${(base + k) & 255}`;
      try {
        await run(this.ip, ['link', 'add', host, 'type', 'veth', 'peer', 'name', peer, 'netns', String(pid)]);
      } catch (err) {
        if (/File exists/.test(String((err as { stderr?: string }).stderr))) continue;
        throw err;
      }
      await run(this.ip, ['addr', 'add', `${addr(1)}/30`, 'dev', host]);
      await run(this.ip, ['link', 'set', host, 'up']);
      const inside = (...args: string[]) => run(this.nsenter, ['--target', String(pid), '--net', '--', this.ip, ...args]);
      await inside('link', 'set', peer, 'name', 'eth0');
      await inside('addr', 'add', `${addr(2)}/30`, 'dev', 'eth0');
      await inside('link', 'set', 'eth0', 'up');
      await inside('route', 'add', 'default', 'via', addr(1));
      return;
    }
    throw new Error('no free site link address');
  }
}

function nameservers(): string[] {
  try {
    return fs
      .readFileSync('/etc/resolv.conf', 'utf8')
      .split('\n')
      .map((l) => /^\s*nameserver\s+(\d+\.\d+\.\d+\.\d+)\s*$/.exec(l)?.[1])
      .filter((a): a is string => !!a);
  } catch {
    return [];
  }
}
