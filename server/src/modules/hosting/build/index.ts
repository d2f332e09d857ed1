// The builds' face: what the hosting module uses of it. A zip of source code is detected
// (detect.ts), built in the sites' sandbox (builder.ts, build-runner.ts) with a cache per project,
// queued fairly across accounts (source-builds.ts), and its log kept (build-log.ts) and streamed
// live from any instance (build-log-stream.ts). Build settings per site: build-settings.ts.
export { BuildFailedError, Builder } from './builder';
export { type BuildPlan } from './detect';
export { BuildLog } from './build-log';
export { BUILD_LOG_LIMITS, BuildLogStreams } from './build-log-stream';
export { BuildSettingsService } from './build-settings';
export { fileNames, SourceBuilds } from './source-builds';
