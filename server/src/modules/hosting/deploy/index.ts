// The deploys' face: what the other parts of hosting use of it. A deployment arrives as a zip
// (zip-extract.ts, off the main thread in zip-worker.ts) or a manifest of digests
// (instant-deploy.ts), is laid out (site-layout.ts), kept in the object store and on local disk
// (site-files.ts), and goes through one lifecycle: storage charged, heartbeats, pruning
// (build-lifecycle.ts). Its _redirects and _headers are parsed and checked here (site-rules.ts)
// and compiled for the edge.
export { DEFAULT_ZIP_LIMITS, extractPlan, extractTo, IN_MEMORY_MAX, planZip, ZipRefusedError, type ZipLimits, type ZipSource } from './zip-extract';
export { SiteFiles, blobKey, siteKeyPrefix } from './site-files';
export { deploymentKind, isSpa, PROJECT_TYPES, runtimeLayout, runtimeOf, staticLayout, type Layout, type ProjectType, type RuntimeKind } from './site-layout';
export { guessZipType } from './guess-type';
export { BuildLifecycle, INTERRUPTED, instanceIdOf } from './build-lifecycle';
export { InstantDeploys, pathProblem } from './instant-deploy';
export { DeployRepository } from './deploy.repository';
export { compileRules, headersFor, loadRules, matchRedirects, RULE_FILES, type CompiledRules, type SiteRules } from './site-rules';
