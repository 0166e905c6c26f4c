import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedSecret } from '../../api/db/shared-secret.js';
import { processImage, variantUrl } from '../../api/images/images.js';
import {
  DatabaseMediaStore,
  FolderMediaStore,
  type MediaStoreKind,
  mediaDirOf,
  moveMedia,
} from '../../api/images/media-store.js';
import { buildTestApp, createUserWithToken, makeTestApp, type TestApp, testConfig } from '../support/app.js';
import { DIALECTS, openTestDb } from '../support/databases.js';

/**
 * The media store (issue 18): the same URLs, cache headers and ETags from the folder and from
 * the database, on both dialects; the move between stores; and the session secret that processes
 * on one database share when JWT_SECRET is unset.
 */
const picture = () =>
  sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 200, g: 80, b: 120 } } })
    .jpeg()
    .toBuffer();

for (const dialect of DIALECTS) {
  for (const kind of ['folder', 'database'] as MediaStoreKind[]) {
    describe(`the ${kind} media store on ${dialect}`, () => {
      let t: TestApp;
      let dataDir: string;
      let thumb: string;

      beforeAll(async () => {
        dataDir = mkdtempSync(path.join(tmpdir(), 'media-store-'));
        t = await makeTestApp(dialect, { dataDir, mediaStore: kind });
        const made = await processImage(await picture(), t.app.media, 'Test picture');
        thumb = variantUrl(made.stem, 320);
      });
      afterAll(async () => {
        await t.close();
        rmSync(dataDir, { recursive: true, force: true });
      });

      it('serves a variant for a year, with a validator that answers 304', async () => {
        expect(t.app.media.kind).toBe(kind);
        const res = await t.app.inject({ method: 'GET', url: thumb });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('image/webp');
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect((await sharp(res.rawPayload).metadata()).width).toBe(320);
        const etag = res.headers.etag as string;
        expect(etag).toMatch(/^(W\/)?"/);
        const again = await t.app.inject({ method: 'GET', url: thumb, headers: { 'if-none-match': etag } });
        expect(again.statusCode).toBe(304);
        expect(again.rawPayload.length).toBe(0);
      });

      it('answers a missing name or a path outside the store with a 404', async () => {
        for (const url of [
          '/media/nope-320.webp',
          '/media/..%2f..%2fetc%2fpasswd',
          '/media/..%2fshop.db',
          '/media/.hidden.webp',
        ]) {
          const res = await t.app.inject({ method: 'GET', url });
          expect([403, 404], url).toContain(res.statusCode);
          expect(res.headers['content-type'] ?? '', url).not.toContain('image/');
        }
      });

      it('removes what it was asked to, and a missing name is not an error', async () => {
        const name = path.basename(thumb);
        await t.app.media.remove([name, 'never-was-320.webp']);
        expect(await t.app.media.get(name)).toBeNull();
        expect((await t.app.inject({ method: 'GET', url: thumb })).statusCode).toBe(404);
      });
    });
  }

  describe(`moving images between stores on ${dialect}`, () => {
    it('copies every image, byte for byte, skips what is there, and keeps the source', async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'media-move-'));
      const db = await openTestDb(dialect);
      try {
        const folder = new FolderMediaStore(mediaDirOf(dataDir));
        const database = new DatabaseMediaStore(db.kysely);
        for (let i = 0; i < 3; i++) await processImage(await picture(), folder, `Picture ${i}`);
        const names = await folder.names();
        expect(names).toHaveLength(6);

        const first = await moveMedia(folder, database);
        expect(first.copied).toBe(6);
        expect(first.alreadyThere).toBe(0);
        expect(await database.names()).toEqual(names);
        for (const name of names) {
          expect(
            (await database.get(name))?.content.equals((await folder.get(name))?.content as Buffer),
          ).toBe(true);
        }
        expect(await folder.names()).toEqual(names);
        // Run again (an interrupted move finished later): nothing is copied twice.
        expect(await moveMedia(folder, database)).toMatchObject({ copied: 0, alreadyThere: 6 });
        // And back, into an empty folder.
        const back = new FolderMediaStore(path.join(dataDir, 'back'));
        expect((await moveMedia(database, back)).copied).toBe(6);
        expect(await back.names()).toEqual(names);
      } finally {
        await db.destroy();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });

  describe(`the shared session secret on ${dialect}`, () => {
    it('is made once, whoever asks first, and a token signed by one process works on another', async () => {
      const db = await openTestDb(dialect);
      const dirs = [0, 1].map(() => mkdtempSync(path.join(tmpdir(), 'shared-secret-')));
      try {
        const asked = await Promise.all(Array.from({ length: 8 }, () => sharedSecret(db.kysely, null)));
        expect(new Set(asked).size).toBe(1);
        expect(asked[0]?.length).toBeGreaterThanOrEqual(32);
        // A later offer (another machine's DATA_DIR secret) does not replace it.
        expect(await sharedSecret(db.kysely, 'x'.repeat(40))).toBe(asked[0]);

        // Two apps on one database, each with its own DATA_DIR and no JWT_SECRET, as two machines.
        const [a, b] = (await Promise.all(
          dirs.map((dataDir) =>
            buildTestApp({ config: testConfig({ dataDir, jwtSecret: null }), db }).then(async (app) => {
              await app.ready();
              return app;
            }),
          ),
        )) as [FastifyInstance, FastifyInstance];
        try {
          const shopper = await createUserWithToken(a, { role: '0' });
          const onB = await b.inject({ method: 'GET', url: '/api/GetUserProfile', headers: shopper.auth });
          expect(onB.statusCode).toBe(200);
          expect(onB.json().data.email).toBe(shopper.email);
        } finally {
          await a.close();
          await b.close();
        }
      } finally {
        await db.destroy();
        for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
