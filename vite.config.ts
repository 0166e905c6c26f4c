import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Builds the shopper's PWA from `web/` into `dist/`, which the server serves. */
export default defineConfig({
  root: 'web',
  publicDir: 'public',
  plugins: [react()],
  build: { outDir: '../dist', emptyOutDir: true },
  server: { proxy: { '/api': 'http://localhost:3000' } },
});
