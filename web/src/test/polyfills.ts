// jsdom lacks TextEncoder/TextDecoder, which react-router reads when it loads.
// Loaded before every web test by jest.config.js (setupFiles); it only polyfills.
import { TextDecoder, TextEncoder } from 'node:util';

const g = globalThis as unknown as Record<string, unknown>;
if (!g.TextEncoder) g.TextEncoder = TextEncoder;
if (!g.TextDecoder) g.TextDecoder = TextDecoder;
