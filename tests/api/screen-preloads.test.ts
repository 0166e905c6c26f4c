import { describe, expect, it } from 'vitest';
import { ScreenPreloads } from '../../api/pages/preload.js';

/** Which code a first visit's HTML names, from a build manifest shaped as Vite writes it. */
const manifest = {
  'index.html': { file: 'assets/index-a.js', isEntry: true, imports: ['_vendor-b.js'] },
  '_vendor-b.js': { file: 'assets/vendor-b.js' },
  '_shop-c.js': { file: 'assets/shop-c.js', imports: ['_vendor-b.js'], css: ['assets/shop-c.css'] },
  'storefront/ProductDetails.tsx': {
    file: 'assets/ProductDetails-d.js',
    imports: ['_vendor-b.js', '_shop-c.js'],
    css: ['assets/ProductDetails-d.css', 'assets/shop-c.css'],
  },
  'account/Login.tsx': { file: 'assets/Login-e.js', imports: ['_vendor-b.js'] },
};

describe('ScreenPreloads', () => {
  const preloads = new ScreenPreloads(manifest);

  it("names a screen's chunk and what it imports, never what the entry loads already", () => {
    const links = preloads.forPath('/products-details/12');
    expect(links).toContain('<link rel="modulepreload" href="/assets/ProductDetails-d.js" />');
    expect(links).toContain('<link rel="modulepreload" href="/assets/shop-c.js" />');
    expect(links).not.toContain('vendor-b.js');
    expect(links).not.toContain('index-a.js');
    // Each stylesheet once, fetched early but not render-blocking.
    expect(links.match(/shop-c\.css/g)).toHaveLength(1);
    expect(links).toContain('<link rel="preload" as="style" href="/assets/ProductDetails-d.css" />');
    // Inert until the shell's start moves them into the head after the first paint.
    expect(links).toMatch(/^<template id="screen-code"><link [\s\S]*<\/template>$/);
  });

  it('matches paths as the app does: any case, a trailing slash, the spec link without an id', () => {
    const product = preloads.forPath('/products-details/12');
    expect(preloads.forPath('/PRODUCTS-DETAILS/12/')).toBe(product);
    expect(preloads.forPath('/products-details')).toBe(product);
    expect(preloads.forPath('/Login')).toContain('/assets/Login-e.js');
  });

  it('names nothing for home, the admin, unknown paths, or a screen the build does not have', () => {
    for (const path of ['/', '/home', '/dashboard', '/no-such-page', '/products-details/1/2', '/search']) {
      expect(preloads.forPath(path), path).toBe('');
    }
  });

  it('names nothing without a manifest (a build made without one)', () => {
    expect(ScreenPreloads.read('/nonexistent-web-dir').forPath('/login')).toBe('');
  });
});
