import { defineConfig } from 'vite';

// The console is served by the gateway at /console from the committed build in console/dist
// (CI rebuilds it and fails when the committed files differ).
export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  logLevel: 'warn',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
    modulePreload: { polyfill: false },
  },
});
