// @vitest-environment jsdom
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSitemaps, SITEMAP_MAX_URLS, SITEMAP_PART_SIZE } from '../../api/pages/sitemap.js';
import { seedDemoCatalogue } from '../../api/seed/demo.js';
import { LIMITS, type Product } from '../../domain/catalogue.js';
import { cardImage } from '../../domain/catalogue-media.js';
import { deliveryAreasText, SEED_AREAS } from '../../domain/delivery-areas.js';
import { DEMO_PROFILE } from '../../domain/shop-profile.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

/**
 * What crawlers and link previews read, through the real app on each dialect:
 * each page's head written into the shell, status codes, robots.txt and the
 * sitemap, following catalogue changes. The browser test with scripts off is
 * tests/e2e/link-previews.test.ts.
 */
const SHELL = `<!doctype html>
<html lang="en-IN">
  <head>
    <meta charset="UTF-8" />
    <meta name="description" content="The shell's own description." />
    <title>Bakery &amp; Blooms</title>
  </head>
  <body><div id="root"><!--shell-main--></div><script type="module" src="/assets/index.js"></script></body>
</html>`;

/** The build's screen shells (vite.config.ts, prerenderScreenShells) and the login screen's stylesheet, as a build writes them. */
const SHELL_CSS = '.account{max-width:30rem}';
const SCREEN_SHELLS = {
  '/login': '<div class="page account"><h1>Login</h1></div>',
};

const HOSTILE = 'Kaju "Katli" </title><script>window.pwned=1</script> & <!-- more';

// The file runs in jsdom (the line above) for its DOMParser: the pages are read as a browser reads them.
function parseHtml(html: string): Document {
  return new DOMParser().parseFromString(html, 'text/html');
}
const metaOf = (doc: Document, key: string) =>
  doc.querySelector(`meta[property="${key}"], meta[name="${key}"]`)?.getAttribute('content') ?? null;
const jsonLdOf = (doc: Document) =>
  [...doc.querySelectorAll('script[type="application/ld+json"]')].map(
    (s) => JSON.parse(s.textContent ?? '') as Record<string, unknown>,
  );

function parseXml(xml: string): Document {
  const parsed = new DOMParser().parseFromString(xml, 'application/xml');
  expect(parsed.getElementsByTagName('parsererror').length, xml.slice(0, 300)).toBe(0);
  return parsed;
}
// querySelectorAll, not getElementsByTagName: walking jsdom's live collection is quadratic (minutes at 50,000).
const locs = (doc: Document) => Array.from(doc.querySelectorAll('loc'), (l) => l.textContent ?? '');

for (const dialect of DIALECTS) {
  describe(`link previews and crawlers on ${dialect}`, () => {
    let t: TestApp;
    let dataDir: string;
    let webDir: string;
    let admin: { authorization: string };
    const get = (url: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url, headers: { host: 'shop.test', ...headers } });
    const products = async () => (await get('/api/ABCGetProducts')).json().data as Product[];

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'pages-data-'));
      webDir = mkdtempSync(path.join(tmpdir(), 'pages-web-'));
      writeFileSync(path.join(webDir, 'index.html'), SHELL);
      mkdirSync(path.join(webDir, '.vite'));
      writeFileSync(path.join(webDir, '.vite', 'screen-shells.json'), JSON.stringify(SCREEN_SHELLS));
      const manifest = {
        'account/Login.tsx': { file: 'assets/Login-a1.js', css: ['assets/account-a1.css'] },
      };
      writeFileSync(path.join(webDir, '.vite', 'manifest.json'), JSON.stringify(manifest));
      mkdirSync(path.join(webDir, 'assets'));
      writeFileSync(path.join(webDir, 'assets', 'account-a1.css'), SHELL_CSS);
      // The Hosts these requests name are the shop's own (a Host not listed is never written: public-origin.test.ts).
      t = await makeTestApp(dialect, { dataDir, webDir, allowedHosts: ['shop.test', 'other.test'] });
      await seedDemoCatalogue(t.app.db, dialect, t.app.media);
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
    });
    afterAll(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(webDir, { recursive: true, force: true });
    });

    it("writes a product's own head: title, description, canonical, Open Graph, price, JSON-LD", async () => {
      const product = (await products()).find((p) => p.variations.length > 0 && p.images.length > 0);
      if (!product) throw new Error('the demo catalogue has a product with variations and a picture');
      const res = await get(`/products-details/${product.productID}`);
      expect(res.statusCode).toBe(200);
      const doc = parseHtml(res.body);
      const url = `http://shop.test/products-details/${product.productID}`;
      expect(doc.title).toBe(`${product.title} | Bakery & Blooms`);
      // The shell's own title and description are replaced, not repeated.
      expect(doc.querySelectorAll('title')).toHaveLength(1);
      expect(doc.querySelectorAll('meta[name="description"]')).toHaveLength(1);
      const description = metaOf(doc, 'description') ?? '';
      expect(description.length).toBeGreaterThan(40);
      expect(description.length).toBeLessThanOrEqual(160);
      expect(description).not.toMatch(/[<>]/);
      expect(doc.querySelector('link[rel=canonical]')?.getAttribute('href')).toBe(url);
      expect(metaOf(doc, 'og:url')).toBe(url);
      expect(metaOf(doc, 'og:type')).toBe('product');
      expect(metaOf(doc, 'og:title')).toBe(product.title);
      expect(metaOf(doc, 'og:site_name')).toBe('Bakery & Blooms');
      expect(metaOf(doc, 'og:locale')).toBe('en_IN');
      expect(metaOf(doc, 'og:image')).toBe(`http://shop.test${product.images[0]?.src}`);
      expect(Number(metaOf(doc, 'og:image:width'))).toBeGreaterThanOrEqual(600);
      expect(Number(metaOf(doc, 'og:image:height'))).toBeGreaterThan(0);
      expect(metaOf(doc, 'og:image:alt')).toBe(product.title);
      expect(metaOf(doc, 'twitter:card')).toBe('summary_large_image');
      expect(metaOf(doc, 'product:price:amount')).toBe(String(product.price));
      expect(metaOf(doc, 'product:price:currency')).toBe('INR');
      expect(metaOf(doc, 'robots')).toBeNull();
      // The app's body is untouched but for the product's picture, where its gallery will be, which
      // paints with the HTML (api/pages/head.ts, renderShellPicture).
      const image = product.images[0];
      expect(res.body).toContain(
        `<div id="root"><div class="shell-main" aria-hidden="true"><img class="shell-media" src="${image?.src}" srcset="${image?.srcset}" sizes="(min-width: 768px) 480px, 100vw" width="640" height="640" alt="" fetchpriority="high" decoding="async"></div></div><script type="module" src="/assets/index.js"></script>`,
      );

      const [data, crumbs] = jsonLdOf(doc);
      expect(data).toMatchObject({
        '@context': 'https://schema.org',
        '@type': 'Product',
        name: product.title,
        sku: String(product.productID),
        brand: { '@type': 'Brand', name: 'Bakery & Blooms' },
        image: product.images.map((i) => `http://shop.test${i.src}`),
        offers: {
          '@type': 'AggregateOffer',
          priceCurrency: 'INR',
          lowPrice: Math.min(product.price, ...product.variations.map((v) => v.price)),
          highPrice: Math.max(product.price, ...product.variations.map((v) => v.price)),
          availability: 'https://schema.org/InStock',
          url,
        },
      });
      expect(typeof data?.description).toBe('string');
      expect(crumbs).toMatchObject({
        '@type': 'BreadcrumbList',
        itemListElement: [
          { position: 1, name: 'Home', item: 'http://shop.test/home' },
          {
            position: 2,
            name: product.categories[0]?.categoryName,
            item: `http://shop.test/products-by-category/${encodeURIComponent(product.categories[0]?.categoryName ?? '')}`,
          },
          { position: 3, name: product.title, item: url },
        ],
      });
    });

    it('escapes a hostile title everywhere, and follows the edit at once', async () => {
      const [product] = await products();
      if (!product) throw new Error('no product');
      const edit = await t.app.inject({
        method: 'PUT',
        url: '/api/UpdateProductDetails',
        headers: admin,
        payload: { ...product, title: HOSTILE, variations: [] },
      });
      expect(edit.statusCode).toBe(200);
      const res = await get(`/products-details/${product.productID}`);
      expect(res.statusCode).toBe(200);
      // Nothing of the title became markup: one title element, no script but the JSON-LD.
      expect(res.body).not.toContain('<script>window.pwned');
      expect(res.body).not.toContain('<!-- more');
      const doc = parseHtml(res.body);
      expect(doc.querySelectorAll('title')).toHaveLength(1);
      expect(doc.title).toBe(`${HOSTILE} | Bakery & Blooms`);
      expect(metaOf(doc, 'og:title')).toBe(HOSTILE);
      expect(metaOf(doc, 'og:image:alt')).toBe(HOSTILE);
      expect([...doc.querySelectorAll('script')].map((s) => s.getAttribute('type'))).toEqual([
        'application/ld+json',
        'application/ld+json',
        'module',
      ]);
      const [data] = jsonLdOf(doc);
      expect(data?.name).toBe(HOSTILE);
      // No variations any more: one Offer at the product's price.
      expect(data?.offers).toMatchObject({ '@type': 'Offer', price: product.price, priceCurrency: 'INR' });
    });

    it('answers a product or category that does not exist with 404 and the app shell', async () => {
      for (const url of [
        '/products-details/999999',
        '/products-details/abc',
        '/products-by-category/No%20Such%20Cakes',
        '/products?categoryId=999',
      ]) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.body).toContain('<div id="root"></div>');
        expect(res.body).not.toContain('shell-main');
        expect(metaOf(parseHtml(res.body), 'robots')).toBe('noindex');
      }
      // A deleted product is missing too, at once.
      const [, gone] = await products();
      const del = await t.app.inject({
        method: 'DELETE',
        url: `/api/DeleteProduct?productID=${gone?.productID}`,
        headers: admin,
      });
      expect(del.statusCode).toBe(200);
      expect((await get(`/products-details/${gone?.productID}`)).statusCode).toBe(404);
    });

    it("paints the login form with the HTML: the build's shell inside #root, its stylesheet allowed by the CSP", async () => {
      const shell = `<div id="root"><div class="shell-screen" aria-hidden="true" inert><style>${SHELL_CSS}</style>${SCREEN_SHELLS['/login']}</div></div>`;
      for (const url of ['/login', '/Login/', '/LOGIN?next=1']) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(200);
        expect(res.body, url).toContain(shell);
      }
      // Only the address it was rendered for.
      for (const url of [
        '/register',
        '/home',
        '/login/more',
        '/constructor',
        '/__proto__',
        '/no-such-page',
      ]) {
        expect((await get(url)).body, url).not.toContain('shell-screen');
      }
      const hash = createHash('sha256').update(SHELL_CSS).digest('base64');
      const allowed = (res: { headers: Record<string, unknown> }) =>
        String(res.headers['content-security-policy']).includes(`'sha256-${hash}'`);
      expect(allowed(await get('/login'))).toBe(true);
      // Only pages carry it: an API answer or a file has no use for it.
      expect(allowed(await get('/api/ABCGetProducts'))).toBe(false);
      expect(allowed(await get('/robots.txt'))).toBe(false);
    });

    it('names the category on its page, by any spelling of its name or by id', async () => {
      for (const url of [
        '/products-by-category/chocolate%20cakes',
        '/Products-By-Category/Chocolate%20Cakes/',
        '/category/Chocolate%20Cakes',
        '/products?categoryId=13',
      ]) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(200);
        const doc = parseHtml(res.body);
        expect(doc.title, url).toBe('Chocolate Cakes | Bakery & Blooms');
        expect(doc.querySelector('link[rel=canonical]')?.getAttribute('href')).toBe(
          'http://shop.test/products-by-category/Chocolate%20Cakes',
        );
        expect(metaOf(doc, 'og:image')).toMatch(/^http:\/\/shop\.test\/media\/.+-640\.webp$/);
        expect(metaOf(doc, 'robots')).toBeNull();
        // The category's list (not All Products' `?categoryId=`): its first cards' pictures, in the
        // HTML's head as preloads and in #root where the cards will be, in the same order.
        const preloaded = [...doc.querySelectorAll('link[rel=preload][as=image]')].map((l) =>
          l.getAttribute('href'),
        );
        const shown = [...doc.querySelectorAll('#root > .shell-main[aria-hidden=true] .shell-cards img')].map(
          (i) => i.getAttribute('src'),
        );
        if (url.includes('categoryId')) expect(shown, url).toEqual([]);
        else {
          expect(shown.length, url).toBe(4);
          expect(shown, url).toEqual(preloaded);
        }
      }
    });

    it("names a search's first results' pictures, in the search endpoint's order, with the shop's words as saved", async () => {
      const found = async (q: string) =>
        ((await get(`/api/search?q=${encodeURIComponent(q)}`)).json().data as Product[])
          .slice(0, 4)
          .map(cardImage);
      const named = async (q: string) => {
        const doc = parseHtml((await get(`/search?q=${encodeURIComponent(q)}`)).body);
        expect(metaOf(doc, 'robots'), q).toBe('noindex');
        const preloaded = [...doc.querySelectorAll('link[rel=preload][as=image]')].map((l) =>
          l.getAttribute('href'),
        );
        const shown = [...doc.querySelectorAll('#root > .shell-main[aria-hidden=true] .shell-cards img')].map(
          (i) => i.getAttribute('src'),
        );
        expect(shown, q).toEqual(preloaded);
        return preloaded;
      };
      // A plain word, two words, a synonym (bday), a typo (chocolte): the device's rule, whole.
      for (const q of ['cake', 'Chocolate  Cake', 'bday cake', 'chocolte']) {
        const first = await found(q);
        expect(first.length, q).toBeGreaterThan(0);
        expect(await named(q), q).toEqual(first);
      }
      // A query longer than the search endpoint takes (LIMITS.searchQuery) is not run for a page, though
      // every word of this one would find the cakes.
      const long = 'cake '.repeat(Math.ceil(LIMITS.searchQuery / 5) + 1).trim();
      expect(long.length).toBeGreaterThan(LIMITS.searchQuery);
      for (const q of ['', '   ', 'zzqqxx', long]) expect(await named(q), q.slice(0, 20)).toEqual([]);
      // The shop's words as they stand: one saved now counts on the next page.
      expect(await named('kuchen')).toEqual([]);
      const words = (await get('/api/admin/settings', admin)).json().data.searchSynonyms as unknown[];
      const saved = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/settings',
        headers: admin,
        payload: { searchSynonyms: [...words, { word: 'kuchen', means: 'cake' }] },
      });
      expect(saved.statusCode).toBe(200);
      expect(await named('kuchen')).toEqual(await found('cake'));
      await t.app.inject({
        method: 'PUT',
        url: '/api/admin/settings',
        headers: admin,
        payload: { searchSynonyms: words },
      });
    });

    it('describes the shop on the home page: a Bakery per store and the site search', async () => {
      const res = await get('/home');
      expect(res.statusCode).toBe(200);
      const doc = parseHtml(res.body);
      expect(doc.title).toBe('Bakery & Blooms');
      const data = jsonLdOf(doc);
      const bakeries = data.filter((d) => d['@type'] === 'Bakery');
      expect(bakeries.length).toBeGreaterThanOrEqual(2);
      // The demo's profile (the seed writes it): its care phone, each store's address and PIN.
      expect(bakeries.map((b) => (b.address as { postalCode: string }).postalCode)).toEqual(
        DEMO_PROFILE.stores.map((s) => s.pin),
      );
      for (const b of bakeries) {
        expect(b).toMatchObject({
          telephone: DEMO_PROFILE.care.phone,
          email: DEMO_PROFILE.care.email,
          address: { '@type': 'PostalAddress', addressCountry: 'IN', postalCode: expect.any(String) },
        });
      }
      expect(data.find((d) => d['@type'] === 'WebSite')).toMatchObject({
        potentialAction: {
          '@type': 'SearchAction',
          target: { urlTemplate: 'http://shop.test/search?q={search_term_string}' },
          'query-input': 'required name=search_term_string',
        },
      });
    });

    it('names where the shop delivers from its delivery areas: areaServed and the descriptions, following a change', async () => {
      const cityNames = (served: unknown) =>
        (served as { '@type': string; name: string }[]).map((c) => `${c['@type']} ${c.name}`);
      const seeded = ['Chandigarh', 'Mohali', 'Kharar', 'Zirakpur', 'Panchkula'].map((c) => `City ${c}`);
      const [product] = await products();
      if (!product) throw new Error('no product');
      const heads = async () => {
        const productDoc = parseHtml((await get(`/products-details/${product.productID}`)).body);
        const homeDoc = parseHtml((await get('/home')).body);
        const categoryDoc = parseHtml((await get('/products-by-category/Chocolate%20Cakes')).body);
        const offers = jsonLdOf(productDoc)[0]?.offers as Record<string, unknown>;
        const bakeries = jsonLdOf(homeDoc).filter((d) => d['@type'] === 'Bakery');
        return {
          product: cityNames(offers.areaServed),
          served: offers.areaServed as unknown[],
          bakeries: bakeries.map((b) => cityNames(b.areaServed)),
          bakeryDescriptions: bakeries.map((b) => b.description),
          home: metaOf(homeDoc, 'description') ?? '',
          category: metaOf(categoryDoc, 'description') ?? '',
        };
      };
      const before = await heads();
      expect(before.product).toEqual(seeded);
      expect(before.bakeries).toEqual([seeded, seeded]);
      const line = deliveryAreasText(SEED_AREAS);
      expect(before.home).toBe(
        `Bakery & Blooms: Eggless since 2015. Cakes, flowers, chocolates and gifts. ${line}.`,
      );
      expect(before.bakeryDescriptions).toEqual([before.home, before.home]);
      expect(before.category).toContain(`${line}.`);
      for (const d of [before.home, before.category]) expect(d).not.toMatch(/free|pan-india|across india/i);
      expect(before.served[4]).toEqual({
        '@type': 'City',
        name: 'Panchkula',
        containedInPlace: {
          '@type': 'AdministrativeArea',
          name: 'Haryana',
          containedInPlace: { '@type': 'Country', name: 'India' },
        },
      });

      // The shop stops delivering to Panchkula: every head says so on the next request.
      const panchkula = SEED_AREAS.filter((a) => a.city === 'Panchkula');
      for (const a of panchkula) {
        const res = await t.app.inject({
          method: 'DELETE',
          url: `/api/admin/delivery-areas/${a.pincode}`,
          headers: admin,
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      const after = await heads();
      expect(after.product).toEqual(seeded.slice(0, 4));
      expect(after.bakeries).toEqual([seeded.slice(0, 4), seeded.slice(0, 4)]);
      expect(after.home).toContain(
        'Same-day delivery in Chandigarh, Mohali, Kharar and Zirakpur, ₹150-₹250.',
      );
      for (const a of panchkula) {
        const res = await t.app.inject({
          method: 'PUT',
          url: `/api/admin/delivery-areas/${a.pincode}`,
          headers: admin,
          payload: { city: a.city, state: a.state, charge: a.charge },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      expect((await heads()).product).toEqual(seeded);
    });

    it('asks search engines to keep out of search results and a shopper’s own pages', async () => {
      for (const url of ['/search?q=cake', '/cart', '/checkout', '/my-orders', '/login', '/dashboard']) {
        const res = await get(url);
        // These are the app's own screens: they load, they are just not for an index.
        expect(res.statusCode, url).toBe(200);
        expect(metaOf(parseHtml(res.body), 'robots'), url).toBe('noindex');
      }
      for (const url of ['/home', '/products', '/about-us', '/contact', '/all-categories']) {
        expect(metaOf(parseHtml((await get(url)).body), 'robots'), url).toBeNull();
      }
    });

    it('takes the origin from PUBLIC_URL, else from a listed Host (X-Forwarded-* only through a trusted proxy)', async () => {
      const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.test' };
      const untrusted = parseHtml((await get('/about-us', forwarded)).body);
      expect(untrusted.querySelector('link[rel=canonical]')?.getAttribute('href')).toBe(
        'http://shop.test/about-us',
      );
      const behindProxy = await makeTestApp(dialect, {
        dataDir,
        webDir,
        trustProxy: true,
        allowedHosts: ['shop.example'],
      });
      const withPublic = await makeTestApp(dialect, { dataDir, webDir, publicUrl: 'https://bakery.example' });
      try {
        const proxied = await behindProxy.app.inject({
          url: '/about-us',
          headers: {
            host: 'internal:3000',
            'x-forwarded-proto': 'https',
            'x-forwarded-host': 'shop.example',
          },
        });
        expect(parseHtml(proxied.body).querySelector('link[rel=canonical]')?.getAttribute('href')).toBe(
          'https://shop.example/about-us',
        );
        const pub = await withPublic.app.inject({ url: '/robots.txt', headers: { host: 'anything.test' } });
        expect(pub.body).toContain('Sitemap: https://bakery.example/sitemap.xml');
      } finally {
        await behindProxy.close();
        await withPublic.close();
      }
    });

    it('serves robots.txt that keeps crawlers out of private pages and names the sitemap', async () => {
      const res = await get('/robots.txt');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      const lines = res.body.split('\n');
      expect(lines[0]).toBe('User-agent: *');
      for (const p of [
        '/admin',
        '/checkout',
        '/cart',
        '/my-orders',
        '/my-profile',
        '/login',
        '/register',
        '/otp',
      ])
        expect(lines, p).toContain(`Disallow: ${p}`);
      // The shop's public pages stay open.
      expect(lines.filter((l) => /^Disallow: \/(products|home|contact|about-us|$)/.test(l))).toEqual([]);
      expect(lines).toContain('Sitemap: http://shop.test/sitemap.xml');
    });

    it('lists every product, category and fixed page in a sitemap that follows the catalogue', async () => {
      const res = await get('/sitemap.xml');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/xml/);
      const doc = parseXml(res.body);
      expect(doc.documentElement.localName).toBe('urlset');
      const listed = locs(doc);
      const live = await products();
      for (const p of live) expect(listed).toContain(`http://shop.test/products-details/${p.productID}`);
      expect(listed).toContain('http://shop.test/products-by-category/Chocolate%20Cakes');
      expect(listed).toContain('http://shop.test/home');
      expect(doc.querySelectorAll('lastmod').length).toBeGreaterThanOrEqual(live.length);
      expect(res.body.match(/<image:loc>/g)?.length ?? 0).toBeGreaterThan(0);

      // Compressed once and sent as such to a browser or crawler that takes brotli.
      const br = await get('/sitemap.xml', { 'accept-encoding': 'br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(res.body);

      // Unchanged catalogue: a 304. A change: a new ETag and the change listed.
      const etag = String(res.headers.etag);
      expect((await get('/sitemap.xml', { 'if-none-match': etag })).statusCode).toBe(304);
      const [first] = live;
      const del = await t.app.inject({
        method: 'DELETE',
        url: `/api/DeleteProduct?productID=${first?.productID}`,
        headers: admin,
      });
      expect(del.statusCode).toBe(200);
      const after = await get('/sitemap.xml', { 'if-none-match': etag });
      expect(after.statusCode).toBe(200);
      expect(after.headers.etag).not.toBe(etag);
      expect(locs(parseXml(after.body))).not.toContain(
        `http://shop.test/products-details/${first?.productID}`,
      );
      // A small shop has no parts.
      expect((await get('/sitemap-1.xml')).statusCode).toBe(404);
      // Another origin is another sitemap, with its own ETag.
      const other = await get('/sitemap.xml', {
        host: 'other.test',
        'if-none-match': String(after.headers.etag),
      });
      expect(other.statusCode).toBe(200);
      expect(other.body).toContain('http://other.test/home');
    });
  });
}

describe('a sitemap of 50,000 URLs or more', { timeout: 120_000 }, () => {
  const abs = (p: string) => `https://shop.example${p}`;
  const items = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      url: abs(`/products-details/${i + 1}`),
      lastmod: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    }));

  it('stays one sitemap below the limit', async () => {
    const built = await buildSitemaps(items(SITEMAP_MAX_URLS - 1), abs);
    expect(built.parts).toEqual([]);
    const doc = parseXml(built.root);
    expect(doc.documentElement.localName).toBe('urlset');
    expect(locs(doc)).toHaveLength(SITEMAP_MAX_URLS - 1);
  });

  it('becomes an index of parts, which together list every URL once', async () => {
    const all = items(SITEMAP_MAX_URLS);
    const built = await buildSitemaps(all, abs);
    const index = parseXml(built.root);
    expect(index.documentElement.localName).toBe('sitemapindex');
    expect(locs(index)).toEqual(['https://shop.example/sitemap-1.xml', 'https://shop.example/sitemap-2.xml']);
    const listed = built.parts.flatMap((part) => {
      const doc = parseXml(part);
      expect(doc.documentElement.localName).toBe('urlset');
      return locs(doc);
    });
    // In order, each once (an array compare: vitest compares Sets pairwise, too slow at 50,000).
    expect(listed).toEqual(all.map((i) => i.url));
    expect(locs(parseXml(built.parts[0] ?? ''))).toHaveLength(SITEMAP_PART_SIZE);
    // Each part's entry carries its newest change.
    expect(index.querySelectorAll('lastmod')[1]?.textContent).toBe(all.at(-1)?.lastmod);
  });
});
