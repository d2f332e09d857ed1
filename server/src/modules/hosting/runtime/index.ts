// The runtime's face (hosting's sites as processes): what the other parts of hosting use of it.
// Sites run sandboxed (sandbox.ts, cgroups.ts, site-network.ts) by the process runtime, in Docker,
// or on the instance holding the runner lease; builds reuse the same sandbox. The site's
// environment (site-env.ts) and its processes' output (runtime-logs.ts) are kept here too.
export { RuntimeStartError, type Runtime, type RuntimeKind, type SiteSpec, type Upstream } from './runtime';
export { siteRuntime } from './site-runtime';
export { isPeerRequest, PEER_HEADER } from './runtime.leased';
export { SiteEnv, envNameProblem, openVariable, sealVariable, type SiteEnvInput } from './site-env';
// For builds, which run in the sites' sandbox.
export { BUILD_CACHE, buildSandboxArgv, envArgs, findTool, passwdFiles, probeSandbox, SITE_PATH, SITE_PORT, type SandboxSupport } from './sandbox';
export { detectCgroups, SiteGroup, type CgroupLayout } from './cgroups';
export { SiteNetwork } from './site-network';
