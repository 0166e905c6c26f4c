import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/**
 * Builds the shopper's PWA from `web/` into `dist/`, which the server serves,
 * and the service worker from `sw/sw.ts` (injectManifest: our own worker, with
 * the list of built files injected for precaching). See sw/README.md.
 */
export default defineConfig({
  root: 'web',
  publicDir: 'public',
  plugins: [
    react(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: '../sw',
      filename: 'sw.ts',
      // The page registers the worker itself (web/pwa/start.ts) to own the update prompt.
      injectRegister: false,
      registerType: 'prompt',
      injectManifest: {
        // A classic script: every browser with service workers runs it, module workers are newer.
        rollupFormat: 'iife',
        // The manifest and its icons are added by the plugin itself; listing them here would add them twice.
        globPatterns: ['**/*.{js,css,html,svg,woff2}', '*.png'],
        // The admin screens are not part of the offline shop; they load from the network.
        globIgnores: ['**/admin*', '**/Admin*', '**/dashboard*', '**/Dashboard*'],
      },
      manifest: {
        id: '/',
        name: 'Bakery & Blooms',
        short_name: 'Bakery&Blooms',
        description:
          'Eggless cakes, fresh flowers, chocolates and gifts with same-day delivery in Chandigarh and Mohali.',
        lang: 'en-IN',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        theme_color: '#7b2d43',
        background_color: '#fff8f4',
        categories: ['food', 'shopping'],
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      devOptions: { enabled: false },
    }),
  ],
  build: { outDir: '../dist', emptyOutDir: true },
  server: { proxy: { '/api': 'http://localhost:3000', '/media': 'http://localhost:3000' } },
});
