// @vitest-environment jsdom
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import {
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  TableNode,
  type UnknownRow,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../api/config.js';
import type { Db } from '../../api/db/database.js';
import { buildSitemaps, SitemapTemplate, sitemapItems } from '../../api/pages/sitemap.js';
import { seedDemoCatalogue } from '../../api/seed/demo.js';
import { publicUrlWarning } from '../../api/startup.js';
import { buildTestApp, createUserWithToken, testConfig } from '../support/app.js';
import { DIALECTS, openTestDb } from '../support/databases.js';
import { PAGE_SHELL } from '../support/page-shell.js';

/**
 * Absolute URLs and the Host header (api/pages/origin.ts): a stranger's Host is never written
 * into a page head, robots.txt or the sitemap, and the sitemap is made once per catalogue version
 * whatever Host it is asked with. The apps listen on a real port, so "the listening address" is
 * the one a client really reached, and each request names its own Host.
 */
/** Counts the sitemap's builds by what each build reads: the products' pictures, in one query. */
class ImageReads implements KyselyPlugin {
  count = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = args.node;
    if (
      node.kind === 'SelectQueryNode' &&
      node.from?.froms.some((f) => TableNode.is(f) && f.table.identifier.name === 'product_images')
    )
      this.count += 1;
    return node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function get(port: number, pathname: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: pathname, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
      .on('error', reject);
  });
}

const canonicalOf = (html: string) =>
  new DOMParser()
    .parseFromString(html, 'text/html')
    .querySelector('link[rel=canonical]')
    ?.getAttribute('href');
const locsOf = (xml: string) =>
  Array.from(
    new DOMParser().parseFromString(xml, 'application/xml').querySelectorAll('loc'),
    (l) => l.textContent,
  );

for (const dialect of DIALECTS) {
  describe(`absolute URLs and the Host header on ${dialect}`, () => {
    let db: Db;
    const reads = new ImageReads();
    let dataDir: string;
    let webDir: string;
    const apps: FastifyInstance[] = [];

    /** The app on the shared database, listening on 127.0.0.1 and a free port. */
    async function listening(overrides: Parameters<typeof testConfig>[0] = {}) {
      const app = await buildTestApp({
        config: testConfig({
          dataDir,
          webDir,
          host: '127.0.0.1',
          mediaStore: dialect === 'postgres' ? 'database' : 'folder',
          ...overrides,
        }),
        db,
      });
      apps.push(app);
      await app.listen({ port: 0, host: '127.0.0.1' });
      const port = (app.server.address() as AddressInfo).port;
      return { app, port, get: (p: string, headers: Record<string, string>) => get(port, p, headers) };
    }

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'origin-data-'));
      webDir = mkdtempSync(path.join(tmpdir(), 'origin-web-'));
      writeFileSync(path.join(webDir, 'index.html'), PAGE_SHELL);
      const opened = await openTestDb(dialect);
      db = { ...opened, kysely: opened.kysely.withPlugin(reads) };
      const seeding = await listening();
      await seedDemoCatalogue(db.kysely, dialect, seeding.app.media);
    });
    afterAll(async () => {
      for (const app of apps) await app.close();
      await db?.destroy();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(webDir, { recursive: true, force: true });
    });

    it('makes the sitemap once per catalogue version, whatever Host it is asked with', async () => {
      const shop = await listening();
      const own = `http://127.0.0.1:${shop.port}`;
      const before = reads.count;
      for (let i = 0; i < 12; i++) {
        const res = await shop.get('/sitemap.xml', { host: `flood-${i}.example` });
        expect(res.status).toBe(200);
        expect(res.body).not.toContain('flood-');
        expect(locsOf(res.body)).toContain(`${own}/home`);
      }
      // The addresses the shop does answer to: localhost and the listening address, with its port.
      const local = await shop.get('/sitemap.xml', { host: `localhost:${shop.port}` });
      expect(locsOf(local.body)).toContain(`http://localhost:${shop.port}/home`);
      expect(locsOf((await shop.get('/sitemap.xml', { host: `127.0.0.1:${shop.port}` })).body)).toContain(
        `${own}/home`,
      );
      expect(reads.count - before).toBe(1);

      // A change to the catalogue is a new version: made once more, and it shows.
      const admin = (await createUserWithToken(shop.app, { role: '1' })).auth;
      const gone = (
        await db.kysely.selectFrom('products').select('id').orderBy('id').executeTakeFirstOrThrow()
      ).id;
      const del = await shop.app.inject({
        method: 'DELETE',
        url: `/api/DeleteProduct?productID=${gone}`,
        headers: admin,
      });
      expect(del.statusCode).toBe(200);
      for (let i = 0; i < 4; i++) {
        const res = await shop.get('/sitemap.xml', { host: `after-${i}.example` });
        expect(locsOf(res.body)).not.toContain(`${own}/products-details/${gone}`);
        expect(locsOf(res.body)).toContain(`${own}/home`);
      }
      expect(reads.count - before).toBe(2);
    });

    it("writes the listening address, never a stranger's Host, into page heads and robots.txt", async () => {
      const shop = await listening();
      const own = `http://127.0.0.1:${shop.port}`;
      const evil = { host: 'evil.example' };
      const about = await shop.get('/about-us', evil);
      expect(canonicalOf(about.body)).toBe(`${own}/about-us`);
      const product = await db.kysely
        .selectFrom('products')
        .select('id')
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      const page = await shop.get(`/products-details/${product.id}`, evil);
      expect(page.status).toBe(200);
      expect(canonicalOf(page.body)).toBe(`${own}/products-details/${product.id}`);
      expect(page.body).toContain(`"url":"${own}/products-details/${product.id}"`);
      for (const body of [about.body, page.body]) expect(body).not.toContain('evil.example');
      const robots = await shop.get('/robots.txt', evil);
      expect(robots.body).toContain(`Sitemap: ${own}/sitemap.xml`);
      expect(robots.body).not.toContain('evil.example');
      // Not a host at all: the same.
      expect(canonicalOf((await shop.get('/about-us', { host: 'a"b<c' })).body)).toBe(`${own}/about-us`);
    });

    it('uses a Host that ALLOWED_HOSTS lists (any case, its port), and nothing else', async () => {
      const shop = await listening({ allowedHosts: ['shop.example', 'shop.example:8080'] });
      const own = `http://127.0.0.1:${shop.port}`;
      const before = reads.count;
      expect(canonicalOf((await shop.get('/about-us', { host: 'Shop.Example' })).body)).toBe(
        'http://shop.example/about-us',
      );
      expect(canonicalOf((await shop.get('/about-us', { host: 'shop.example:80' })).body)).toBe(
        'http://shop.example/about-us',
      );
      expect((await shop.get('/robots.txt', { host: 'shop.example:8080' })).body).toContain(
        'Sitemap: http://shop.example:8080/sitemap.xml',
      );
      expect(locsOf((await shop.get('/sitemap.xml', { host: 'shop.example' })).body)).toContain(
        'http://shop.example/home',
      );
      // The list replaces the default, and another port of a listed name is another host.
      for (const host of [`localhost:${shop.port}`, 'shop.example:3000', 'evil.example']) {
        expect(canonicalOf((await shop.get('/about-us', { host })).body), host).toBe(`${own}/about-us`);
        expect(locsOf((await shop.get('/sitemap.xml', { host })).body), host).toContain(`${own}/home`);
      }
      // This app's own first build; each further origin is spliced in.
      expect(reads.count - before).toBe(1);
    });

    it('goes by PUBLIC_URL when it is set, and by a trusted proxy only for a listed Host', async () => {
      const pub = await listening({
        publicUrl: 'https://bakery.example/shop',
        allowedHosts: ['shop.example'],
      });
      expect(canonicalOf((await pub.get('/about-us', { host: 'shop.example' })).body)).toBe(
        'https://bakery.example/shop/about-us',
      );
      expect(locsOf((await pub.get('/sitemap.xml', { host: 'shop.example' })).body)).toContain(
        'https://bakery.example/shop/home',
      );
      expect((await pub.get('/robots.txt', { host: 'evil.example' })).body).toContain(
        'Sitemap: https://bakery.example/shop/sitemap.xml',
      );

      const proxied = await listening({ trustProxy: true, allowedHosts: ['shop.example'] });
      const through = (host: string) => ({
        host: 'internal:3000',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': host,
      });
      expect(canonicalOf((await proxied.get('/about-us', through('shop.example'))).body)).toBe(
        'https://shop.example/about-us',
      );
      expect(canonicalOf((await proxied.get('/about-us', through('evil.example'))).body)).toBe(
        `https://127.0.0.1:${proxied.port}/about-us`,
      );
    });
  });
}

describe('the sitemap made once and given each origin', () => {
  const products = [
    { productID: 1, title: 'Plain cake', updatedAt: Date.UTC(2026, 0, 1), image: '/media/a-800.webp' },
    // A title that holds the stand-in origin after a '>' is text, and stays as it was.
    {
      productID: 2,
      title: '>http://sitemap-origin.invalid & <b>',
      updatedAt: Date.UTC(2026, 0, 2),
      image: '/media/b-800.webp',
    },
    { productID: 3, title: 'No picture', updatedAt: Date.UTC(2026, 0, 3), image: null },
  ];
  const categories = [{ categoryID: 1, categoryName: 'Chocolate Cakes', updatedAt: Date.UTC(2026, 0, 1) }];

  it('is byte for byte the sitemap made for that origin, as one file or as an index of parts', async () => {
    for (const options of [{}, { maxUrls: 4, partSize: 3 }]) {
      const template = await SitemapTemplate.build(products, categories, options);
      for (const origin of [
        'https://shop.example',
        'http://127.0.0.1:3000',
        'https://shop.example/a%20b&c',
      ]) {
        const abs = (p: string) => `${origin}${p}`;
        const direct = await buildSitemaps(sitemapItems(products, categories, abs), abs, options);
        expect(template.withOrigin(origin), origin).toEqual(direct);
      }
    }
  });
});

describe('ALLOWED_HOSTS, SHUTDOWN_GRACE and the PUBLIC_URL warning', () => {
  const base = { DATA_DIR: path.join(tmpdir(), 'origin-config'), JWT_SECRET: 'x'.repeat(40) };
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig({ ...base, ...env });
      return '';
    } catch (err) {
      return err instanceof ConfigError ? err.message : String(err);
    }
  };

  it('reads a list of hosts, each with its port, in lower case; unset is the default', () => {
    expect(
      loadConfig({ ...base, ALLOWED_HOSTS: ' Shop.Example.com, localhost:3000,[::1]:8080 ' }).allowedHosts,
    ).toEqual(['shop.example.com', 'localhost:3000', '[::1]:8080']);
    expect(loadConfig(base).allowedHosts).toBeNull();
    expect(loadConfig(base).shutdownGraceMs).toBe(10_000);
    expect(loadConfig({ ...base, SHUTDOWN_GRACE: '1m' }).shutdownGraceMs).toBe(60_000);
  });

  it('names ALLOWED_HOSTS or SHUTDOWN_GRACE when it is bad', () => {
    for (const bad of [
      'https://shop.example',
      'shop example',
      'shop.example:99999',
      ',',
      'shop.example/path',
      '*.example',
    ])
      expect(problems({ ALLOWED_HOSTS: bad }), bad).toContain('ALLOWED_HOSTS must be host names');
    for (const bad of ['10', 'soon', '0s'])
      expect(problems({ SHUTDOWN_GRACE: bad }), bad).toContain('SHUTDOWN_GRACE');
  });

  it('warns in production when PUBLIC_URL is unset, and only then', () => {
    const address = { address: '127.0.0.1', family: 'IPv4', port: 3000 };
    const warning = publicUrlWarning({ mode: 'production', publicUrl: null, allowedHosts: null }, address);
    expect(warning).toContain('PUBLIC_URL is not set');
    expect(warning).toContain('http://127.0.0.1:3000');
    expect(
      publicUrlWarning(
        { mode: 'production', publicUrl: 'https://shop.example', allowedHosts: null },
        address,
      ),
    ).toBeNull();
    expect(
      publicUrlWarning({ mode: 'development', publicUrl: null, allowedHosts: null }, address),
    ).toBeNull();
  });
});
