// The build log stream's parser is the client package's (packages/client/src/sse.ts): one copy for
// the CLI and the console.
export { sseParser, type SseEvent } from '../../../packages/client/src/sse';
