// Hop-by-hop headers (RFC 9110 7.6.1): they describe one connection, so a proxy never forwards
// them — the fixed list plus every header the sender named in its own Connection header.
// Used by the gateway's HTTP proxy and its WebSocket tunnel alike.
import type http from 'node:http';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** A predicate for one message's header names (lower-case), given its Connection header. */
export function hopByHop(connection: string | string[] | undefined): (name: string) => boolean {
  const named = new Set(
    String(connection ?? '')
      .toLowerCase()
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  );
  return (name) => HOP_BY_HOP.has(name) || named.has(name);
}

/** The end-to-end headers of a message, for forwarding; X-Forwarded-* too when asked (the proxy sets its own). */
export function endToEndHeaders(headers: http.IncomingHttpHeaders, dropForwarded = false): Record<string, string | string[]> {
  const isHop = hopByHop(headers.connection);
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined || isHop(k) || (dropForwarded && k.startsWith('x-forwarded-'))) continue;
    out[k] = v;
  }
  return out;
}
