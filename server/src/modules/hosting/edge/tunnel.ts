// Upgraded connections (WebSocket) to a dynamic site: the client's request is re-sent to the
// site's upstream (TCP, or the unix socket a sandbox relay listens on) with hop-by-hop headers
// dropped except the upgrade itself, then bytes flow both ways untouched. Either side closing or
// failing ends both.
import net from 'node:net';
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Upstream } from '../runtime';
import { hopByHop } from '../../../platform/http/hop-by-hop';


export interface TunnelOptions {
  upstream: Upstream;
  forwardedFor: string;
  forwardedProto: 'http' | 'https';
  /** Once both sides are closed: the upstream's status (101 when upgraded) and bytes each way. */
  done(status: number, bytesIn: number, bytesOut: number): void;
}

/** A plain HTTP/1.1 answer on a socket that has not been upgraded, then close. */
export function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  if (!socket.writable) return void socket.destroy();
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`);
}

/** The request head as the upstream gets it. */
export function upstreamHead(req: http.IncomingMessage, forwardedFor: string, forwardedProto: string, peer?: string): string {
  // Hop-by-hop headers are dropped; Connection and Upgrade are re-added for the upgrade itself.
  const isHop = hopByHop(req.headers.connection);
  let head = `${req.method ?? 'GET'} ${req.url ?? '/'} HTTP/1.1\r\n`;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (isHop(name) || name.startsWith('x-forwarded-') || name === 'x-hostbase-peer') continue;
    head += `${raw[i]}: ${raw[i + 1]}\r\n`;
  }
  head += `Connection: Upgrade\r\nUpgrade: ${String(req.headers.upgrade ?? '')}\r\n`;
  // To another instance (SITE_RUNNER=lease), the token it trusts; never to a site.
  if (peer) head += `X-Hostbase-Peer: ${peer}\r\n`;
  head += `X-Forwarded-For: ${forwardedFor}\r\nX-Forwarded-Host: ${req.headers.host ?? ''}\r\nX-Forwarded-Proto: ${forwardedProto}\r\n\r\n`;
  return head;
}

export function tunnel(req: http.IncomingMessage, client: Duplex, head: Buffer, opts: TunnelOptions): void {
  const upstream = 'socketPath' in opts.upstream ? net.connect({ path: opts.upstream.socketPath }) : net.connect({ host: opts.upstream.host, port: opts.upstream.port });
  let bytesIn = 0;
  let bytesOut = 0;
  let status = 0;
  let connected = false;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    client.destroy();
    upstream.destroy();
    opts.done(status || 502, bytesIn, bytesOut);
  };
  // Long-lived by nature: the HTTP server's idle timeouts don't apply once upgraded.
  if (client instanceof net.Socket) {
    client.setTimeout(0);
    client.setNoDelay(true);
  }
  upstream.setNoDelay(true);

  const headText = upstreamHead(req, opts.forwardedFor, opts.forwardedProto, 'peer' in opts.upstream ? opts.upstream.peer : undefined);
  bytesIn += Buffer.byteLength(headText) + head.length;
  upstream.on('connect', () => {
    connected = true;
    upstream.write(headText);
    if (head.length) upstream.write(head);
    client.on('data', (chunk: Buffer) => {
      bytesIn += chunk.length;
      if (!upstream.write(chunk)) client.pause();
    });
    upstream.on('drain', () => client.resume());
  });
  upstream.on('data', (chunk: Buffer) => {
    if (status === 0) {
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(chunk.toString('latin1', 0, 16));
      status = m ? Number(m[1]) : 502;
    }
    bytesOut += chunk.length;
    if (!client.write(chunk)) upstream.pause();
  });
  client.on('drain', () => upstream.resume());
  upstream.on('error', () => {
    if (connected || finished) return finish();
    // Nothing was sent to the client yet: it gets an answer, not a reset.
    finished = true;
    upstream.destroy();
    refuseUpgrade(client, 502, 'Bad Gateway');
    setTimeout(() => client.destroy(), 5000).unref();
    opts.done(502, bytesIn, 0);
  });
  upstream.on('close', finish);
  upstream.on('end', () => client.end());
  client.on('end', () => upstream.end());
  client.on('error', finish);
  client.on('close', finish);
}
