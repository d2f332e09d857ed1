// Ports for servers a test starts in another process, or binds later than it picks them (pebble,
// the test DNS servers). A port the kernel hands out for `listen(0)` comes from its ephemeral range
// (32768-60999), the range outgoing connections take their source ports from: with several test
// files running at once, one of their connections could take the port between the pick and the
// bind (seen in CI: the DNS server's EADDRINUSE). These come from below that range, checked free.
import net from 'node:net';

const LOW = 10_000;
const HIGH = 32_000;

function bindable(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, host, () => s.close(() => resolve(true)));
  });
}

/** A TCP port below the ephemeral range that is free now on `host`. */
export async function quietPort(host = '127.0.0.1'): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW));
    if (await bindable(port, host)) return port;
  }
  throw new Error('no free port below the ephemeral range');
}

/** A random port below the ephemeral range, for servers that retry on their own (UDP and TCP at once). */
export const randomQuietPort = () => LOW + Math.floor(Math.random() * (HIGH - LOW));

/**
 * dns2's listen() resolves on 'listening' only: a port taken would hang it and throw an unhandled
 * error. This rejects instead, so the caller can try another port.
 */
export function listenDns(server: { listen(o: object): Promise<unknown>; once(e: 'error', f: (err: Error) => void): unknown }, port: number, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ udp: { port, address }, tcp: { port, address } }).then(() => resolve(), reject);
  });
}
