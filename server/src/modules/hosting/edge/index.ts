// The edge's face: what the hosting module wires of it. Requests for hosted sites are answered
// here: by the server's front door before Fastify (front-door.ts) or the gateway's hook
// (gateway.ts), as files (static-site.ts, pages.ts) or through a tunnel to the site's process
// (tunnel.ts); traffic is counted (traffic.ts) and the plan's bandwidth enforced (bandwidth.ts).
export { FrontDoor } from './front-door';
export { Gateway, type LiveSiteSource } from './gateway';
export { StaticSites } from './static-site';
export { severityOf, TrafficCounter } from './traffic';
export { BandwidthGuard } from './bandwidth';
