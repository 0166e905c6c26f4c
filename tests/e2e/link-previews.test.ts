import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PROFILE } from '../../domain/shop-profile.js';
import { adminToken, type RunningServer } from '../support/e2e.js';
import { openShop, type Shop } from '../support/shop.js';

/**
 * What a link-preview crawler (WhatsApp, Facebook, Telegram, X) sees: real
 * Chromium with JavaScript disabled, against the real server, its built shell
 * and the demo catalogue. Everything below comes from the HTML the server
 * sent; no script of the app runs. The API tests (tests/api/pages.test.ts)
 * cover every page kind; this one checks them as a browser parses them.
 */
const INSTAGRAM = 'https://www.instagram.com/bakeryandblooms.demo/';
const HOSTILE = 'Kaju "Katli" </title><script>window.pwned=1</script><img src=x onerror="window.pwned=2">';

let shop: Shop;
let server: RunningServer;
let browser: Browser;
let noScript: BrowserContext;
let feed: Awaited<ReturnType<Shop['feed']>>;

beforeAll(async () => {
  shop = await openShop();
  ({ server, browser } = shop);
  // The social profiles are the profile's (sameAs), saved as the owner saves them.
  const saved = await fetch(`${server.url}/api/admin/settings`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${await adminToken(server)}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      profile: { ...DEMO_PROFILE, social: { ...DEMO_PROFILE.social, instagram: INSTAGRAM } },
    }),
  });
  expect(saved.status).toBe(200);
  feed = await shop.feed();
  noScript = await browser.newContext({ javaScriptEnabled: false, serviceWorkers: 'block' });
});

afterAll(() => shop?.close());

async function open(path: string): Promise<{ page: Page; status: number }> {
  const page = await noScript.newPage();
  const res = await page.goto(`${server.url}${path}`);
  return { page, status: res?.status() ?? 0 };
}

async function head(page: Page) {
  return page.evaluate(() => {
    const meta = (key: string) =>
      document.querySelector(`meta[property="${key}"], meta[name="${key}"]`)?.getAttribute('content') ?? null;
    return {
      title: document.title,
      titles: document.querySelectorAll('title').length,
      canonical: document.querySelector('link[rel=canonical]')?.getAttribute('href') ?? null,
      meta,
      tags: Object.fromEntries(
        [
          'description',
          'robots',
          'application-name',
          'og:url',
          'og:title',
          'og:description',
          'og:site_name',
          'og:locale',
          'og:type',
          'og:image',
          'og:image:width',
          'og:image:height',
          'og:image:alt',
          'twitter:card',
          'product:price:amount',
          'product:price:currency',
        ].map((k) => [k, meta(k)]),
      ) as Record<string, string | null>,
      jsonLd: [...document.querySelectorAll('script[type="application/ld+json"]')].map((s) =>
        JSON.parse(s.textContent ?? ''),
      ) as Record<string, unknown>[],
      hasRoot: document.getElementById('root') !== null,
      pwned: (window as unknown as { pwned?: number }).pwned ?? null,
    };
  });
}

describe('link previews with JavaScript off', () => {
  it('a product page carries its own title, description, picture, price and structured data', async () => {
    const product = feed.products.find((p) => p.images.length > 0);
    if (!product) throw new Error('the demo catalogue has products with pictures');
    const { page, status } = await open(`/products-details/${product.productID}`);
    expect(status).toBe(200);
    const h = await head(page);
    const url = `${server.url}/products-details/${product.productID}`;
    expect(h.title).toBe(`${product.title} | Bakery & Blooms`);
    expect(h.titles).toBe(1);
    expect(h.canonical).toBe(url);
    expect(h.tags).toMatchObject({
      'og:url': url,
      'og:title': product.title,
      'og:type': 'product',
      'og:site_name': 'Bakery & Blooms',
      'og:locale': 'en_IN',
      'og:image': `${server.url}${product.images[0]?.src}`,
      'og:image:alt': product.title,
      'twitter:card': 'summary_large_image',
      'product:price:amount': String(product.price),
      'product:price:currency': 'INR',
      robots: null,
    });
    expect(h.tags.description?.length).toBeGreaterThan(40);
    expect(h.tags.description?.length).toBeLessThanOrEqual(160);
    expect(Number(h.tags['og:image:width'])).toBeGreaterThanOrEqual(600);
    // The picture a preview shows is really there.
    const image = await fetch(h.tags['og:image'] ?? '');
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');

    const productData = h.jsonLd.find((d) => d['@type'] === 'Product');
    expect(productData).toMatchObject({
      '@context': 'https://schema.org',
      name: product.title,
      sku: String(product.productID),
      brand: { name: 'Bakery & Blooms' },
      image: expect.arrayContaining([`${server.url}${product.images[0]?.src}`]),
      offers: { priceCurrency: 'INR', availability: 'https://schema.org/InStock', url },
    });
    const offers = productData?.offers as { '@type': string } | undefined;
    expect(['Offer', 'AggregateOffer']).toContain(offers?.['@type']);
    expect(typeof productData?.description).toBe('string');
    const crumbs = h.jsonLd.find((d) => d['@type'] === 'BreadcrumbList') as {
      itemListElement: { name: string; item: string }[];
    };
    expect(crumbs.itemListElement.map((i) => i.name)).toEqual([
      'Home',
      product.categories[0]?.categoryName,
      product.title,
    ]);
    await page.close();
  });

  it('a category page names its category; home describes the shop and its stores', async () => {
    const cat = await open(`/products-by-category/${encodeURIComponent('red velvet cakes')}`);
    expect(cat.status).toBe(200);
    const c = await head(cat.page);
    expect(c.title).toBe('Red Velvet Cakes | Bakery & Blooms');
    expect(c.canonical).toBe(`${server.url}/products-by-category/Red%20Velvet%20Cakes`);
    expect(c.tags['og:image']).toMatch(/\/media\/.+\.webp$/);
    await cat.page.close();

    const home = await open('/home');
    const h = await head(home.page);
    expect(h.title).toBe('Bakery & Blooms');
    expect(h.tags['og:type']).toBe('website');
    expect(h.tags['application-name']).toBe(DEMO_PROFILE.name);
    const bakeries = h.jsonLd.filter((d) => d['@type'] === 'Bakery');
    expect(bakeries).toHaveLength(DEMO_PROFILE.stores.length);
    for (const b of bakeries) {
      expect(b).toMatchObject({
        address: { '@type': 'PostalAddress', addressCountry: 'IN' },
        telephone: DEMO_PROFILE.care.phone,
        sameAs: [INSTAGRAM],
      });
    }
    expect(h.jsonLd.find((d) => d['@type'] === 'WebSite')).toMatchObject({
      potentialAction: {
        '@type': 'SearchAction',
        target: { urlTemplate: `${server.url}/search?q={search_term_string}` },
      },
    });
    await home.page.close();
  });

  it('a hostile product title stays text, with scripts off and on', async () => {
    const token = await adminToken(server);
    const product = feed.products[2];
    if (!product) throw new Error('no product');
    const current = (await (await fetch(`${server.url}/api/GetProductById/${product.productID}`)).json()) as {
      data: Record<string, unknown>;
    };
    const update = await fetch(`${server.url}/api/UpdateProductDetails`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...current.data, title: HOSTILE }),
    });
    expect(update.status).toBe(200);

    const { page } = await open(`/products-details/${product.productID}`);
    const h = await head(page);
    expect(h.titles).toBe(1);
    expect(h.title).toBe(`${HOSTILE} | Bakery & Blooms`);
    expect(h.tags['og:title']).toBe(HOSTILE);
    expect(h.jsonLd.find((d) => d['@type'] === 'Product')?.name).toBe(HOSTILE);
    // Nothing of the title became an element of the document.
    expect(await page.locator('img[src=x]').count()).toBe(0);
    // The same scripts as any other product page: the title added none.
    const scripts = (p: Page) =>
      p.evaluate(() =>
        [...document.scripts]
          .filter((el) => el.type !== 'application/ld+json')
          .map((el) => el.src || el.textContent?.slice(0, 60)),
      );
    const other = await open(`/products-details/${feed.products[3]?.productID}`);
    expect(await scripts(page)).toEqual(await scripts(other.page));
    await other.page.close();
    await page.close();

    // With scripts on, the same HTML runs only the app.
    const withJs = await browser.newContext({ serviceWorkers: 'block' });
    const live = await withJs.newPage();
    await live.goto(`${server.url}/products-details/${product.productID}`);
    await live.getByRole('heading', { level: 1, name: HOSTILE }).waitFor();
    expect(await live.evaluate(() => (window as unknown as { pwned?: number }).pwned ?? null)).toBeNull();
    await withJs.close();
  });

  it('a product or category that does not exist is a 404 with the app shell', async () => {
    for (const path of ['/products-details/987654', '/products-by-category/No%20Such%20Cakes']) {
      const { page, status } = await open(path);
      expect(status, path).toBe(404);
      const h = await head(page);
      expect(h.hasRoot, path).toBe(true);
      expect(h.tags.robots, path).toBe('noindex');
      await page.close();
    }
    const search = await open('/search?q=cake');
    expect(search.status).toBe(200);
    expect((await head(search.page)).tags.robots).toBe('noindex');
    await search.page.close();
  });
});

/** The server's own links (api/pages/preload.ts); Vite's for the entry's imports carry `crossorigin`. */
const SCREEN_PRELOAD = /<link rel="modulepreload" href="([^"]+)" \/>/g;

describe('a first visit to a lazy screen', () => {
  // The HTML names the screen's code so it downloads beside the app's (api/pages/preload.ts). Each link
  // must be code the page then runs: a link to a chunk the route no longer loads is a wasted download,
  // and the sign that the server's list and the app's route table have drifted apart.
  it('names in its HTML exactly code the screen then loads, and the screen shows', async () => {
    const product = feed.products[0];
    const category = feed.categories.find((c) =>
      feed.products.some((p) => p.categories.some((x) => x.categoryID === c.categoryID)),
    );
    const paths = [
      `/products-details/${product?.productID}`,
      `/products-by-category/${encodeURIComponent(category?.categoryName ?? '')}`,
      '/search?q=cake',
      '/login',
      '/about-us',
    ];
    const context = await browser.newContext({ serviceWorkers: 'block' });
    try {
      for (const path of paths) {
        const url = `${server.url}${path}`;
        const html = await (await fetch(url)).text();
        const named = [...html.matchAll(SCREEN_PRELOAD)].map((m) => m[1]);
        expect(named.length, path).toBeGreaterThan(0);
        // What the app asks for by itself, with the links taken out: every link must be in it.
        const page = await context.newPage();
        await page.route(url, (route) =>
          route.fulfill({ status: 200, contentType: 'text/html', body: html.replace(SCREEN_PRELOAD, '') }),
        );
        const scripts = new Set<string>();
        page.on('request', (r) => {
          if (r.resourceType() === 'script') scripts.add(new URL(r.url()).pathname);
        });
        await page.goto(url);
        await page.locator('main h1').first().waitFor();
        await page.waitForLoadState('networkidle');
        for (const href of named) expect([...scripts], `${path} preloads ${href}`).toContain(href);
        await page.close();
      }
      // With the links, the screen shows as before, and the shell's start has put them into the head
      // (they wait in a template until the first paint: vite.config.ts, startAfterFirstPaint).
      const page = await context.newPage();
      const productHtml = await (await fetch(`${server.url}${paths[0]}`)).text();
      await page.goto(`${server.url}${paths[0]}`);
      await page.locator('main h1').first().waitFor();
      const inHead = await page.evaluate(() =>
        [...document.head.querySelectorAll('link[rel="modulepreload"]')].map((l) => l.getAttribute('href')),
      );
      // Beside the ones Vite's loader adds for the screen's imports.
      expect(inHead).toEqual(
        expect.arrayContaining([...productHtml.matchAll(SCREEN_PRELOAD)].map((m) => m[1])),
      );
      expect(await page.locator('template#screen-code').count()).toBe(0);
      await page.close();
      // The build's manifest stays on the server.
      expect((await fetch(`${server.url}/.vite/manifest.json`)).status).toBe(404);
      // Home's code is the app's own, and an admin path names nothing of the admin's.
      const home = await (await fetch(`${server.url}/home`)).text();
      expect(home).not.toContain('rel="modulepreload" href="/assets/');
      expect(await (await fetch(`${server.url}/dashboard`)).text()).not.toContain(
        'modulepreload" href="/assets/admin',
      );
    } finally {
      await context.close();
    }
  });
});

describe("a first visit's largest picture", () => {
  // The HTML names the picture the screen then shows first (its LCP), so the phone fetches it with the
  // app's code; a category page also names the order seed its grid starts with (domain/visit-order.ts).
  // A preload of any other picture would be a wasted download on a slow link: the screen must show it.
  it("is named in the HTML, with the first screen's other cards, as the product, category or search page then shows them", async () => {
    const product = feed.products.find((p) => p.images.length > 0);
    const category = feed.categories.find(
      (c) => feed.products.filter((p) => p.categories.some((x) => x.categoryID === c.categoryID)).length > 2,
    );
    const context = await browser.newContext({
      serviceWorkers: 'block',
      viewport: { width: 412, height: 823 },
    });
    try {
      const cases = [
        { path: `/products-details/${product?.productID}`, shown: 'main .gallery__media' },
        // Several visits: each may get another of the page's seeds, and each must match.
        ...[1, 2, 3, 4].map(() => ({
          path: `/products-by-category/${encodeURIComponent(category?.categoryName ?? '')}`,
          shown: 'main article.card img',
        })),
        // A search's first results, which the device ranks over the catalogue it has just synced.
        { path: '/search?q=cake', shown: 'main article.card img' },
        { path: '/search?q=bday%20cake', shown: 'main article.card img' },
      ];
      const seeds = new Set<string>();
      for (const { path, shown } of cases) {
        const page = await context.newPage();
        await page.goto(`${server.url}${path}`);
        const img = page.locator(shown).first();
        await img.waitFor();
        // What this very visit's HTML named (each request of a category page may get another seed).
        const named = await page.evaluate(() => ({
          hrefs: [...document.querySelectorAll('link[rel="preload"][as="image"]')].map((l) =>
            l.getAttribute('href'),
          ),
          high: document
            .querySelector('link[rel="preload"][as="image"][fetchpriority="high"]')
            ?.getAttribute('href'),
          seed: document.querySelector('meta[name="visit-seed"]')?.getAttribute('content') ?? null,
        }));
        expect(named.high, path).toBeTruthy();
        expect(named.hrefs[0]).toBe(named.high);
        // The element's own source (a srcset's pick differs by screen density; the preload names the same set).
        expect(await img.getAttribute('src'), path).toBe(named.high);
        if (path.startsWith('/products-by-category') || path.startsWith('/search')) {
          // A phone's first screen: the first four cards, in the order shown.
          const shownFirst = await page
            .locator(shown)
            .evaluateAll((els) => els.slice(0, 4).map((e) => e.getAttribute('src')));
          expect(named.hrefs, path).toEqual(shownFirst);
          expect(await page.locator('.shell-cards img').count(), path).toBe(0);
        }
        if (path.startsWith('/products-by-category')) {
          expect(named.seed).toBeTruthy();
          seeds.add(named.seed ?? '');
          expect(await page.evaluate(() => sessionStorage.getItem('shopVisitSeed'))).toBe(named.seed);
        } else if (path.startsWith('/products-details')) {
          expect(named.hrefs).toHaveLength(1);
        }
        await page.close();
      }
      expect(seeds.size).toBeGreaterThan(0);
      // Home's random sections, the private pages and a search that finds nothing name no picture.
      for (const path of ['/home', '/cart', '/search?q=zzqqxx', '/search?q='])
        expect(await (await fetch(`${server.url}${path}`)).text(), path).not.toContain('as="image"');
    } finally {
      await context.close();
    }
  });
});
