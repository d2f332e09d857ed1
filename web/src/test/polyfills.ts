// jsdom lacks TextEncoder/TextDecoder, which react-router reads when it loads.
// Import this first in any test that pulls in react-router.
import { TextDecoder, TextEncoder } from 'node:util';

const g = globalThis as unknown as Record<string, unknown>;
if (!g.TextEncoder) g.TextEncoder = TextEncoder;
if (!g.TextDecoder) g.TextDecoder = TextDecoder;
