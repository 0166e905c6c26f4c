import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rollup, type UserConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/**
 * Writes `.br` (quality 11) and `.gz` (level 9) beside every text asset, so a
 * server that serves pre-compressed files (@fastify/static `preCompressed`)
 * sends the smallest bytes without compressing on each request. The worker's
 * precache list ignores them (its patterns name the plain files).
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'storefront-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const file = path.join(dir, name);
          return statSync(file).isDirectory() ? walk(file) : [file];
        });
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg|webmanifest|json)$/.test(file)) continue;
        const body = readFileSync(file);
        if (body.length < 1024) continue;
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

/**
 * Puts the entry's stylesheet into index.html as a <style> element. A linked
 * stylesheet blocks the first paint for one more request, and on a slow phone
 * link that small file shares the bandwidth with the app's scripts, which start
 * downloading at the same moment; inlined, the shell's HTML paints as soon as it
 * arrives. The shell is revalidated (and precached by the worker), so the styles
 * of a new build arrive with it. Only styles whose url()s are all data: URLs are
 * inlined (a relative url() would resolve against the page instead of /assets/).
 */
function inlineEntryCss(): Plugin {
  return rewriteShell('storefront-inline-entry-css', (html, bundle) =>
    html.replace(/<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g, (tag, file: string) => {
      const css = bundle[file];
      if (css?.type !== 'asset') return tag;
      const text = typeof css.source === 'string' ? css.source : new TextDecoder().decode(css.source);
      if (/url\(\s*(?!["']?data:)/.test(text) || text.includes('</style')) return tag;
      // The file stays, and a disabled link names it (a disabled stylesheet is not fetched): a lazy
      // chunk loaded from another lazy chunk lists the entry's stylesheet among its dependencies,
      // and Vite's preload skips one a <link> already names; without the link it fetched the file,
      // and without the file the import failed (the admin area and the account menu would not load).
      return `<style>${text}</style><link rel="stylesheet" href="/${file}" disabled>`;
    }),
  );
}

/**
 * Starts the app's code after the shell's first paint rather than whenever its download ends: the
 * entry's `<script type="module">` becomes a one-line inline script that imports it after the next
 * frame. On a phone's slow link little changes: the HTML paints long before the code could arrive,
 * and the download starts a frame later. On a fast one
 * (a repeat visit, Wi-Fi, the bench's unthrottled load) the code used to arrive and run before the
 * browser first painted, so the header's outline and mark appeared only with the app, after its
 * start-up tasks; Lighthouse then counted the whole entry's download in the first contentful
 * paint (1.9-2.3 s against 0.7-1.2 s for runs that painted first, issue 47). The download
 * starts after that paint too: a `modulepreload` finished first on a fast link and was counted the
 * same way; so did the lazy screen's code the server names for a first visit to its address
 * (api/pages/preload.ts), which waits in a `<template id="screen-code">` and joins the head here.
 * A hidden tab gets no frames, and a repeat visit has its code on the device (the service worker
 * answers): both start at once. A repeat visit's shell also drops the header's mark: the app
 * paints over it within a few hundred milliseconds, and the mark painted first only moved the
 * first contentful paint before the start-up's tasks, which Lighthouse then counted as blocking
 * (the checkout's 95 ms became 326 ms; the tasks themselves were the same).
 */
function startAfterFirstPaint(): Plugin {
  return rewriteShell('storefront-start-after-first-paint', (html) => {
    const entry = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/;
    const src = html.match(entry)?.[1];
    if (!src)
      throw new Error('index.html has no entry <script type="module">: the start-after-paint step needs it');
    const start = `<script>(function(){function go(){var t=document.getElementById('screen-code');if(t){document.head.append(t.content);t.remove()}import(${JSON.stringify(src)})}var local=navigator.serviceWorker&&navigator.serviceWorker.controller;if(local){var mark=document.querySelector('.shell-header .logo__mark');if(mark)mark.remove()}if(document.hidden||local)go();else requestAnimationFrame(function(){setTimeout(go)})})()</script>`;
    return html.replace(entry, '').replace(/<\/body>/, `  ${start}\n  </body>`);
  });
}

/**
 * Renders the screens of `web/app/screen-shells.tsx` to static markup once the app is built, into
 * `.vite/screen-shells.json` beside Vite's manifest (not served: the server reads both at start and
 * writes a page's own shell, with its screen's stylesheets, inside `#root`: api/pages/screen-shells.ts).
 * The screens' modules load through a Vite server in SSR mode, as the build compiles them (their
 * stylesheets skipped).
 */
function prerenderScreenShells(): Plugin {
  let root = '';
  let outDir = '';
  return {
    name: 'storefront-screen-shells',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const { createServer } = await import('vite');
      const server = await createServer({
        root,
        configFile: false,
        logLevel: 'error',
        appType: 'custom',
        plugins: [react()],
        server: { middlewareMode: true, hmr: false, ws: false },
      });
      try {
        const { renderScreenShells } = await server.ssrLoadModule('/app/screen-shells.tsx');
        writeFileSync(path.join(outDir, '.vite', 'screen-shells.json'), JSON.stringify(renderScreenShells()));
      } finally {
        await server.close();
      }
    },
  };
}

/** A build step that rewrites the built index.html, after Vite has written its own tags into it. */
function rewriteShell(name: string, rewrite: (html: string, bundle: Rollup.OutputBundle) => string): Plugin {
  return {
    name,
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (html?.type !== 'asset' || typeof html.source !== 'string') return;
      html.source = rewrite(html.source, bundle);
    },
  };
}

/**
 * Builds the shopper's PWA from `web/` into `dist/`, which the server serves,
 * and the service worker from `sw/sw.ts` (injectManifest: our own worker, with
 * the list of built files injected for precaching). See sw/README.md.
 */
export default defineConfig(({ command }) => {
  // A build is always the production build, whatever NODE_ENV the shell has: `NODE_ENV=development npm start`
  // used to bake React's development bundle and `import.meta.env.PROD = false` (so no service worker) into the
  // shop it served. Vite reads NODE_ENV after loading this file; development is `vite` (serve), not a build.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return config;
});

const config = {
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
        // The build's icons (a shop without a logo installs them, the worker's notifications show them);
        // the manifest is not precached: the server's answer, from the shop's profile, must win.
        globPatterns: ['**/*.{js,css,html,svg,woff2}', '*.png', 'icons/*.png'],
        // The admin screens are not part of the offline shop; they load from the network.
        globIgnores: ['**/admin*', '**/Admin*', '**/dashboard*', '**/Dashboard*'],
      },
      // The server writes the manifest from the shop's profile (api/pages/manifest.ts); the shell links
      // it (web/index.html). A build-time manifest would be precached and answer for the shop's own.
      manifest: false,
      devOptions: { enabled: false },
    }),
    inlineEntryCss(),
    startAfterFirstPaint(),
    prerenderScreenShells(),
    precompress(),
  ],
  resolve: {
    // The modern module builds of Dexie and workbox-window: the packages' default entries are ES5
    // files whose transpiled classes and async code cost about 1.7 and 1 KiB more (compressed) on
    // every first visit, for browsers that have no service workers or IndexedDB worth the name.
    alias: [
      // React Router's production build: the package's exports name its development build under every
      // condition (the two differ only in ENABLE_DEV_WARNINGS), so its warnings' code and texts rode
      // on every first visit (issue 17: the first screen's budget).
      {
        find: /^react-router$/,
        replacement: path.resolve(import.meta.dirname, 'node_modules/react-router/dist/production/index.mjs'),
      },
      {
        find: /^react-router\/dom$/,
        replacement: path.resolve(
          import.meta.dirname,
          'node_modules/react-router/dist/production/dom-export.mjs',
        ),
      },
      {
        find: /^dexie$/,
        replacement: path.resolve(import.meta.dirname, 'node_modules/dexie/dist/modern/dexie.mjs'),
      },
      {
        find: /^workbox-window$/,
        replacement: path.resolve(
          import.meta.dirname,
          'node_modules/workbox-window/build/workbox-window.prod.mjs',
        ),
      },
    ],
  },
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    // `.vite/manifest.json`: the server names a lazy screen's chunks in a first visit's HTML (api/pages/preload.ts).
    manifest: true,
    // Every browser with service workers and module scripts has modulepreload, or goes without the hint.
    modulePreload: { polyfill: false },
    // The storefront bench's trace names the modules a long task ran (tests/bench/trace-page.ts): maps
    // beside the files, no comment in them, so the code and its bytes are those of the plain build.
    sourcemap: process.env.STOREFRONT_SOURCEMAPS === '1' ? 'hidden' : false,
    rolldownOptions: {
      output: {
        // The admin's chunks (its screens and what only they share) start with "admin-": the worker's
        // precache (globIgnores above) leaves them out, so a shopper's phone never downloads the shop
        // owner's tools.
        // No V8 compile hint (`//# allFunctionsCalledOnLoad`) on the entry and the libraries: with it
        // V8 compiled all of their 440 KB, Dexie's and React Router's unused parts too, in one task
        // on the main thread before the first screen ran (50-77 ms at 4x CPU in the storefront bench's
        // trace), and Lighthouse's blocking time on home, category and product fell from 53-86 ms to
        // 2-27 ms without it.
        chunkFileNames: (chunk) =>
          chunk.moduleIds.length > 0 &&
          chunk.moduleIds.every((id) => /[\\/](web[\\/]admin[\\/]|domain[\\/]admin)/.test(id))
            ? 'assets/admin-[name]-[hash].js'
            : 'assets/[name]-[hash].js',
        codeSplitting: {
          // Only the modules each group names: by default a group also takes what they import,
          // which pulled modules of the first screen into the shared chunk below, and home loaded it.
          includeDependenciesRecursively: false,
          // The first screen as one file: every module the entry imports statically (rolldown's `$initial`
          // tag), the libraries, the entry's own code and the bundler's runtime together. Left to itself
          // the bundler made small shared chunks of React, Dexie and each module lazy screens also import
          // (eleven requests where one does); named one by one in a vendor group beside the entry, the
          // three files (entry, libraries, runtime) each compressed alone cost the first screen about
          // 0.8 KiB of gzip more than one file does (the storefront bench, 2026-11-28).
          groups: [
            {
              name: 'first-screen',
              tags: ['$initial'],
            },
            // What the product, category and cart screens share (cart, messages, the added popup, their catalogue reads), as
            // one file: it was four chunks, each one more request before a first visit's product
            // page could render, and four more names in the entry's table of what to preload. With them the
            // gift rules and controls (issue 26) the product page, the cart and the checkout share: four more
            // chunks of their own would have put four more names into the first screen's entry (the saved
            // recipients' calls load by dynamic import for the same reason: see web/account/recipients.ts).
            // With them the small modules those screens and checkout share (the delivery promise and its
            // facts, slots, India time, phone numbers and their words): eight chunks of a few hundred bytes
            // each were eight more requests before a first visit's product or category page could paint,
            // on a phone's six connections (the storefront bench's Lighthouse part). The settings' own
            // schemas (profile, policies, offer, the Cash on Delivery rules, the search synonyms, the cancel hours) too: in a chunk of their own they imported valibot from
            // this one while it imported them, and `v.email()` ran before valibot's regex was set.
            // Valibot and the messages, which every form and the screens above use: in the chunk above,
            // a first visit to /login downloaded the gift rules, slots and the cake's controls too (36.4
            // KB of its own code where it needs 17.8).
            {
              name: 'forms',
              test: /node_modules[\\/]valibot[\\/]|domain[\\/](validation|messages|single-line|phone)\.ts/,
            },
            {
              name: 'shop',
              test: /domain[\\/](cart|catalogue|page-head|gifts|payment-methods|cod-rules|delivery-areas|settings|search-synonyms|cancel-hours|shop-profile|policies|shop-offer|coupon-terms|visit-order|india-time|slot-schema|slots|delivery-promise|slot-messages|delivery-words)\.ts|sw[\\/](cart|product-reads)\.ts|web[\\/](components[\\/]AddedPopup|components[\\/]CakeGift|hooks[\\/]useAddToCart|hooks[\\/]useProducts|hooks[\\/]new-key|hooks[\\/]useDelivery|hooks[\\/]useDeliveryFacts)\.tsx?/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/media': 'http://localhost:3000',
      '/manifest.webmanifest': 'http://localhost:3000',
      '/icons/shop-': 'http://localhost:3000',
    },
  },
} satisfies UserConfig;
