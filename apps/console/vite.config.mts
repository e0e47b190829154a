import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/** The console is served by the API at /console (see apps/api/console/console-files.ts); `npm run build` writes it to dist/console. */
export default defineConfig({
  root,
  base: '/console/',
  plugins: [react()],
  // The SDK from its sources (as apps/console/tsconfig.json's `paths` says): `import … from '@pylon/sdk'`.
  resolve: { alias: { '@pylon/sdk': fileURLToPath(new URL('../../packages/sdk/src/index.ts', import.meta.url)) } },
  build: {
    outDir: fileURLToPath(new URL('../../dist/console', import.meta.url)),
    emptyOutDir: true,
    // Everything is served from this origin: no inlined data: URLs, so the CSP can stay `'self'`.
    assetsInlineLimit: 0,
    sourcemap: true,
  },
  logLevel: 'warn',
});
