import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { afterBuild } from './after-build.mjs';

const root = fileURLToPath(new URL('.', import.meta.url));
// The API server the dev and preview servers forward /api to.
const apiTarget = process.env.HOSTBASE_API ?? 'http://localhost:3000';

export default defineConfig({
  root,
  plugins: [react(), afterBuild()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    reportCompressedSize: true,
    // bench/web.mjs reads the manifest to sum the landing page's initial JavaScript.
    manifest: true,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
    },
  },
});
