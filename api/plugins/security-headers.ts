/**
 * Security headers on every answer (HTML, API, media, the worker script),
 * through @fastify/helmet with a policy written for this app rather than
 * helmet's generic default. Rules and reasons: the README's "Security headers".
 *
 * The shell inlines two things (vite.config.ts `inlineEntryCss`, web/index.html):
 * the entry stylesheet and the script that starts the first catalogue download; a screen's
 * shell (the login form's) its own stylesheet.
 * They are allowed by their sha256, computed here from the built index.html at
 * start, never by 'unsafe-inline'; a new build is a new start. The worker
 * precaches that same index.html with these headers, so the offline shell is
 * under the same policy.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { RAZORPAY_BROWSER_ORIGINS, STORE_MAP_ORIGIN } from '../../domain/browser-origins.js';
import { ScreenShells } from '../pages/screen-shells.js';
import { isPagePath } from '../pages/shell.js';

export interface SecurityOptions {
  /** The built PWA; its index.html's inline elements are hashed. Absent in API-only runs. */
  webDir: string;
  /** Razorpay keys set: its Checkout's origins are allowed, else nothing of it. */
  razorpay: boolean;
}

/** The `'sha256-…'` sources of the inline `<style>` and `<script>` elements of a built shell. */
export function inlineHashes(html: string): { styles: string[]; scripts: string[] } {
  const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  const styles = [...html.matchAll(/<style(?:\s[^>]*)?>([\s\S]*?)<\/style>/gi)].map((m) => hash(m[1] ?? ''));
  const scripts = [...html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)]
    // An external script is allowed by 'self'; a data block (JSON-LD) is never run, so CSP does not apply to it.
    .filter((m) => !/\ssrc=/i.test(m[1] ?? '') && !/\stype=["']?application\/(ld\+)?json/i.test(m[1] ?? ''))
    .map((m) => hash(m[2] ?? ''));
  return { styles, scripts };
}

/** The Content-Security-Policy directives, as helmet takes them. */
export function cspDirectives(hashes: { styles: string[]; scripts: string[] }, razorpay: boolean) {
  const rzp = razorpay ? RAZORPAY_BROWSER_ORIGINS : null;
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...hashes.scripts, ...(rzp ? [rzp.script] : [])],
    // No handler attributes anywhere (React attaches listeners in script).
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", ...hashes.styles],
    'img-src': ["'self'", 'data:', 'blob:'],
    'connect-src': ["'self'", ...(rzp ? [rzp.api] : [])],
    // Contact's store maps, and Razorpay's checkout window when it is configured.
    'frame-src': [STORE_MAP_ORIGIN, ...(rzp ? [rzp.api] : [])],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
  };
}

/**
 * What the app uses and nothing more: copying a product's link (clipboard-write),
 * a product video full screen, and Razorpay's payment window when it is configured.
 */
export function permissionsPolicy(razorpay: boolean): string {
  const allowed: Record<string, string> = {
    accelerometer: '()',
    camera: '()',
    'clipboard-write': '(self)',
    'display-capture': '()',
    fullscreen: '(self)',
    geolocation: '()',
    gyroscope: '()',
    magnetometer: '()',
    microphone: '()',
    midi: '()',
    payment: razorpay ? `(self "${RAZORPAY_BROWSER_ORIGINS.api}")` : '()',
    usb: '()',
  };
  return Object.entries(allowed)
    .map(([feature, list]) => `${feature}=${list}`)
    .join(', ');
}

export const HSTS = 'max-age=31536000; includeSubDomains';

export default fp(
  async (app: FastifyInstance, opts: SecurityOptions) => {
    const indexFile = path.join(opts.webDir, 'index.html');
    const hashes = existsSync(indexFile)
      ? inlineHashes(readFileSync(indexFile, 'utf8'))
      : { styles: [], scripts: [] };
    // A screen's shell (api/pages/screen-shells.ts) brings its stylesheet inline too.
    const shellStyles = inlineHashes(ScreenShells.read(opts.webDir).markup()).styles;
    const directives = cspDirectives(hashes, opts.razorpay);

    await app.register(helmet, {
      global: true,
      contentSecurityPolicy: {
        // helmet's defaults add 'unsafe-inline' styles and upgrade-insecure-requests (which breaks a shop on plain http).
        useDefaults: false,
        directives: {
          ...directives,
          // On pages only: every API answer carried their hashes for nothing.
          'style-src': [
            ...directives['style-src'],
            ...(shellStyles.length
              ? [
                  (req: IncomingMessage) =>
                    isPagePath((req.url ?? '/').split('?')[0] ?? '/') ? shellStyles.join(' ') : '',
                ]
              : []),
          ],
        },
      },
      // Only over HTTPS (below): on plain http the header is meaningless, and a wrong one locks a host out of http for a year.
      strictTransportSecurity: false,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      xFrameOptions: { action: 'deny' },
      // Razorpay's payment methods (netbanking, 3-D Secure) open windows that report back to their opener.
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    });

    const permissions = permissionsPolicy(opts.razorpay);
    app.addHook('onRequest', async (request, reply) => {
      reply.header('permissions-policy', permissions);
      // request.protocol is https only when this server speaks TLS or a trusted proxy (TRUST_PROXY) says so.
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    });
  },
  { name: 'security-headers' },
);
