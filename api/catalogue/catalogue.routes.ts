import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { catalogueApi } from '../../domain/catalogue.contract.js';
import {
  AddProductFieldsSchema,
  type CategoryGroup,
  LIMITS,
  lowerFirstKeys,
  TOP_PER_CATEGORY,
} from '../../domain/catalogue.js';
import { API_BASE } from '../../domain/contract.js';
import { ok } from '../../domain/envelope.js';
import { messages } from '../../domain/messages.js';
import { type Occasion, OccasionListSchema } from '../../domain/occasions.js';
import { parseWith } from '../../domain/validation.js';
import { badRequest, HttpError, notFound } from '../http/errors.js';
import { given, route } from '../http/route.js';
import { type ProcessedImage, processImage, removeImages } from '../images/images.js';
import { feedETag, readFeed } from './catalogue.feed.js';
import { currentVersion, loadProduct } from './catalogue.repository.js';
import { searchCatalogue } from './catalogue.search.js';
import {
  addCategory,
  addProduct,
  checkCategoriesExist,
  deleteCategory,
  deleteProduct,
  updateProduct,
} from './catalogue.service.js';
import { findCategory, listCategories } from './category.repository.js';
import { sanitizeDescription } from './sanitize.js';

/**
 * The catalogue endpoints (spec section 7) and the delta feed. Handlers
 * validate (through the contract), call the service (writes) or the repository
 * (reads), reply; every write runs in one transaction that bumps the catalogue
 * version (see the service).
 */
export default async function catalogueRoutes(app: FastifyInstance): Promise<void> {
  // Registered here, not app-wide: only the add-product form takes multipart bodies.
  await app.register(multipart, {
    limits: {
      fileSize: LIMITS.imageBytes,
      files: LIMITS.imagesPerProduct,
      fields: 60,
      fieldSize: 128 * 1024,
      parts: 80,
    },
  });
  const lists = app.productLists;

  /**
   * Public reads carry an ETag made of the catalogue version and the request,
   * with `no-cache`: a browser (or CDN) that has the answer revalidates and
   * gets a 304 for one one-row query while nothing changed. Returns the
   * version, or null when the 304 has been sent.
   */
  const revalidate = async (request: FastifyRequest, reply: FastifyReply, key: string) => {
    const version = await currentVersion(app.db);
    const etag = `"v${version}-${key}"`;
    reply.header('etag', etag).header('cache-control', 'no-cache');
    return etagMatches(request.headers['if-none-match'], etag) ? null : version;
  };

  route(app, catalogueApi.getCategories, async ({ request, reply }) => {
    if ((await revalidate(request, reply, 'categories')) === null) return notModified(reply);
    return ok(await listCategories(app.db));
  });

  route(app, catalogueApi.getProducts, async (ctx) => {
    const { request, reply } = ctx;
    const query = given(ctx.query);
    const key = query.categoryId === undefined ? 'products' : `products-c${query.categoryId}`;
    const version = await revalidate(request, reply, key);
    if (version === null) return notModified(reply);
    const list = await lists.get(
      app.db,
      version,
      query.categoryId === undefined ? { all: true } : { categoryId: query.categoryId },
    );
    // Only an empty answer needs to know whether the category exists (deleting one removes its links).
    if (
      query.categoryId !== undefined &&
      !list.products.length &&
      !(await findCategory(app.db, query.categoryId))
    ) {
      throw notFound('Category not found.');
    }
    // The envelope was serialized once for this version (by this route's schema serializer, before
    // this reply's own serializer is replaced); every later request sends that text.
    const json = list.json((envelope) => String(reply.serialize(envelope)));
    reply.serializer(() => json);
    return ok(list.products);
  });

  const oneProduct = async (ctx: {
    params: { id: number } | undefined;
    request: FastifyRequest;
    reply: FastifyReply;
  }) => {
    const { id } = given(ctx.params);
    if ((await revalidate(ctx.request, ctx.reply, `product-${id}`)) === null) return notModified(ctx.reply);
    const product = await loadProduct(app.db, id);
    if (!product) {
      ctx.reply.removeHeader('etag');
      throw notFound(messages.productNotFound);
    }
    return ok(product);
  };
  route(app, catalogueApi.getProduct, oneProduct);
  route(app, catalogueApi.getProductById, oneProduct);

  route(app, catalogueApi.search, async (ctx) =>
    ok(await searchCatalogue(app.db, lists, given(ctx.query).q)),
  );

  route(app, catalogueApi.topProductsByCategory, async ({ request, reply }) => {
    const version = await revalidate(request, reply, 'top');
    if (version === null) return notModified(reply);
    const [categories, list] = await Promise.all([
      listCategories(app.db),
      lists.get(app.db, version, { all: true }),
    ]);
    const groups: CategoryGroup[] = [];
    for (const c of categories) {
      const members = list.products
        .filter((p) => p.categories.some((pc) => pc.categoryID === c.categoryID))
        .slice(0, TOP_PER_CATEGORY);
      if (members.length) groups.push({ ...c, products: members });
    }
    return ok(groups);
  });

  route(app, catalogueApi.addCategory, async (ctx) => {
    const body = given(ctx.body);
    const category = await app.db.transaction().execute((trx) => addCategory(trx, body.categoryName));
    ctx.reply.code(201);
    return ok(category, messages.categoryAdded);
  });

  route(app, catalogueApi.deleteCategory, async (ctx) => {
    const query = given(ctx.query);
    const detached = await app.db.transaction().execute((trx) => deleteCategory(trx, query.categoryID));
    return ok(
      { categoryID: query.categoryID, detachedProducts: detached },
      detached
        ? `Category deleted. ${detached} product(s) no longer list it.`
        : 'Category deleted successfully!',
    );
  });

  route(app, catalogueApi.deleteProduct, async (ctx) => {
    const query = given(ctx.query);
    await app.db.transaction().execute((trx) => deleteProduct(trx, query.productID));
    return ok({ productID: query.productID }, messages.productDeleted);
  });

  route(app, catalogueApi.updateProduct, async (ctx) => {
    const body = given(ctx.body);
    const occasions = body.occasions === undefined ? undefined : knownOnly(body.occasions);
    const description = sanitizeDescription(body.description);
    if (!description) throw badRequest('Description is required.', { field: 'description' });
    await app.db.transaction().execute((trx) => updateProduct(trx, { ...body, description, occasions }));
    const product = await loadProduct(app.db, body.productID);
    if (!product) throw notFound(messages.productNotFound);
    return ok(product, messages.productUpdated);
  });

  route(
    app,
    catalogueApi.addProduct,
    async ({ request, reply }) => {
      if (!request.isMultipart()) {
        throw badRequest('Send the product as multipart/form-data (the add-product form).');
      }
      const { fields, files } = await readProductForm(request.parts());
      const parsed = parseWith(AddProductFieldsSchema, fields);
      if (!parsed.ok) throw badRequest(parsed.message, parsed.field ? { field: parsed.field } : null);
      const occasions = knownOnly(parsed.value.occasions);
      if (!files.length) throw badRequest(messages.productFieldsRequired, { field: 'images' });
      const description = sanitizeDescription(parsed.value.description);
      if (!description) throw badRequest('Description is required.', { field: 'Description' });

      // A form naming an unknown category is refused before any image is decoded (sharp is
      // the slow part); the insert checks again inside its transaction, race-free.
      await checkCategoriesExist(app.db, parsed.value.categoryIDs);

      // Images first, outside the transaction (sharp is slow); nothing is half-written:
      // if any image or the insert fails, the files already made are removed.
      const processed: ProcessedImage[] = [];
      try {
        for (const [i, file] of files.entries()) {
          processed.push(await processImage(file.buffer, app.media, `Image ${i + 1} (${file.filename})`));
        }
        const id = await app.db
          .transaction()
          .execute((trx) => addProduct(trx, { ...parsed.value, description, occasions }, processed));
        const product = await loadProduct(app.db, id);
        if (!product) throw new Error(`product ${id} vanished after insert`);
        reply.code(201);
        return ok(product, messages.productAdded);
      } catch (err) {
        await removeImages(app.media, processed);
        throw err;
      }
    },
    { bodyDescription: 'multipart/form-data, see the summary; at most 6 images of 5 MB each' },
  );

  route(app, catalogueApi.feed, async (ctx) => {
    const { request, reply } = ctx;
    const query = given(ctx.query);
    const version = await currentVersion(app.db);
    const etag = feedETag(query, version);
    reply.header('etag', etag).header('cache-control', 'no-cache');
    if (etagMatches(request.headers['if-none-match'], etag)) return notModified(reply);
    const delta = await readFeed(app.db, query, version);
    // The next page's address ahead of this page's body (RFC 8288): a phone asks for it as soon as
    // these headers arrive, so the next page's round trip and this page's download overlap.
    if (delta.hasMore)
      reply.header(
        'link',
        `<${API_BASE}/sync/catalogue?${new URLSearchParams({ since: delta.cursor, limit: String(query.limit) })}>; rel="next"`,
      );
    return ok(delta);
  });
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}

/**
 * Ends the request with 304 and no body. Fastify's documented way for an async
 * handler that has sent its own reply is to return the reply object; the
 * handler's envelope type does not describe that, hence the cast.
 */
function notModified(reply: FastifyReply): never {
  reply.code(304).send();
  return reply as never;
}

/** A product's occasions checked against the list (the contract's schema takes any names). */
function knownOnly(names: string[]): Occasion[] {
  const parsed = parseWith(OccasionListSchema, names);
  if (!parsed.ok) throw badRequest(parsed.message, { field: 'occasions' });
  return parsed.value;
}

interface FormFile {
  filename: string;
  buffer: Buffer;
}

/**
 * Collects the multipart parts. Field names are matched as the spec writes
 * them with either case of the first letter; `CategoryID` repeats; an empty
 * file part (a browser's "no file chosen") is skipped.
 */
async function readProductForm(
  parts: AsyncIterableIterator<
    MultipartFile | { type: 'field'; fieldname: string; value: unknown; valueTruncated: boolean }
  >,
): Promise<{ fields: Record<string, unknown>; files: FormFile[] }> {
  const raw: Record<string, string[]> = {};
  const files: FormFile[] = [];
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        const name = part.fieldname.toLowerCase();
        if (name !== 'images' && name !== 'image') {
          await part.toBuffer();
          throw badRequest(`Unexpected file field "${part.fieldname}": send images as "images".`);
        }
        const buffer = await part.toBuffer();
        if (buffer.length) files.push({ filename: part.filename || 'unnamed', buffer });
        continue;
      }
      if (part.valueTruncated) throw new HttpError(413, `The field ${part.fieldname} is too long.`);
      const key = Object.keys(lowerFirstKeys({ [part.fieldname]: '' }))[0] ?? part.fieldname;
      const list = raw[key] ?? [];
      list.push(typeof part.value === 'string' ? part.value : String(part.value));
      raw[key] = list;
    }
  } catch (err) {
    // Our own refusals and the multipart limits (413, with their codes) pass through;
    // anything else is the parser failing on a body that is not well-formed multipart.
    if (err instanceof HttpError || (err as { statusCode?: number }).statusCode) throw err;
    throw badRequest('The form data could not be read: it is not well-formed multipart/form-data.');
  }
  const one = (key: string) => raw[key]?.[raw[key].length - 1];
  let variations: unknown = [];
  const variationsJson = one('variationsJson')?.trim();
  if (variationsJson) {
    try {
      variations = JSON.parse(variationsJson);
    } catch {
      throw badRequest('variationsJson is not valid JSON.', { field: 'variationsJson' });
    }
  }
  // CategoryID may repeat, or (some clients) come as one comma-separated value.
  const categoryIDs = (raw.categoryID ?? [])
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  // Occasion repeats as CategoryID does (names hold no comma, so a joined value splits too).
  const occasions = [...(raw.occasion ?? []), ...(raw.occasions ?? [])]
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    fields: {
      categoryIDs,
      occasions,
      title: one('title'),
      description: one('description'),
      labelHeading: one('labelHeading'),
      labelDescription: one('labelDescription'),
      price: one('price'),
      sizeOrWeight: one('sizeOrWeight') ?? '',
      variations,
      takesMessage: one('takesMessage'),
      photoCake: one('photoCake'),
    },
    files,
  };
}
