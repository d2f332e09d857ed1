// The build log stream's parser is the CLI package's (packages/cli/src/sse.ts): one copy for
// the CLI and the console.
export { sseParser, type SseEvent } from '../../../packages/cli/src/sse';
