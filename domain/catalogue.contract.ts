/**
 * The catalogue endpoints of the spec (section 7) and the delta feed, under
 * the API base. `addProduct` takes multipart form data, which the schemas here
 * cannot describe; its fields are checked with `AddProductFieldsSchema`.
 */
import * as v from 'valibot';
import {
  AddCategorySchema,
  CatalogueDeltaSchema,
  CategoryGroupSchema,
  CategorySchema,
  DeleteCategoryQuerySchema,
  DeleteProductQuerySchema,
  FeedQuerySchema,
  IdParamsSchema,
  ProductSchema,
  ProductsQuerySchema,
  SearchQuerySchema,
  UpdateProductSchema,
} from './catalogue.js';
import { endpoint } from './contract.js';

const tag = 'Catalogue';
const id = v.pipe(v.number(), v.integer());
const count = v.pipe(v.number(), v.integer());

export const catalogueApi = {
  getCategories: endpoint({
    method: 'GET',
    path: '/GetCategories',
    summary: 'Every category (id and name)',
    tag,
    access: 'public',
    response: v.array(CategorySchema),
  }),
  getProducts: endpoint({
    method: 'GET',
    path: '/ABCGetProducts',
    summary: 'Every product, or with ?categoryId= the products of one category',
    tag,
    access: 'public',
    response: v.array(ProductSchema),
    refusals: [404],
    query: ProductsQuerySchema,
  }),
  getProduct: endpoint({
    method: 'GET',
    path: '/ABCGetProducts/{id}',
    summary: 'One product',
    tag,
    access: 'public',
    response: ProductSchema,
    params: IdParamsSchema,
  }),
  getProductById: endpoint({
    method: 'GET',
    path: '/GetProductById/{id}',
    summary: 'One product (numeric id)',
    tag,
    access: 'public',
    response: ProductSchema,
    params: IdParamsSchema,
  }),
  search: endpoint({
    method: 'GET',
    path: '/search',
    summary:
      "Products holding every word of q (case-insensitive, any order) in what a shopper reads of them (title, categories, description, label, size, options, occasions); a word found in no product widens to the shop's synonyms (searchSynonyms) and, Latin and 5 letters or more, to words one letter away. Best first: each word ranked as the spec ranked a query (title, then category, then the rest), the weakest word deciding",

    tag,
    access: 'public',
    response: v.array(ProductSchema),
    query: SearchQuerySchema,
  }),
  topProductsByCategory: endpoint({
    method: 'GET',
    path: '/GetTopProductsByCategory',
    summary: 'Products grouped by category name, at most 6 per category',
    tag,
    access: 'public',
    response: v.array(CategoryGroupSchema),
  }),
  addCategory: endpoint({
    method: 'POST',
    path: '/AddCategory',
    summary: 'Add a category ({CategoryName}); a name already in use is a 409',
    tag,
    access: 'admin',
    response: CategorySchema,
    refusals: [409],
    status: 201,
    body: AddCategorySchema,
  }),
  deleteCategory: endpoint({
    method: 'DELETE',
    path: '/DeleteCategory',
    summary: 'Delete a category; products keep their other categories (the category is detached from them)',
    tag,
    access: 'admin',
    response: v.object({ categoryID: id, detachedProducts: count }),
    refusals: [404],
    query: DeleteCategoryQuerySchema,
  }),
  addProduct: endpoint({
    method: 'POST',
    path: '/AddProductForDash',
    summary:
      'Add a product (multipart: CategoryID repeated, Title, Description, LabelHeading, LabelDescription, Price, SizeOrWeight, images, variationsJson)',
    tag,
    access: 'admin',
    response: ProductSchema,
    refusals: [404, 413, 415],
    status: 201,
  }),
  deleteProduct: endpoint({
    method: 'DELETE',
    path: '/DeleteProduct',
    summary: 'Delete a product (it disappears from every list; devices learn it from the feed)',
    tag,
    access: 'admin',
    response: v.object({ productID: id }),
    refusals: [404],
    query: DeleteProductQuerySchema,
  }),
  updateProduct: endpoint({
    method: 'PUT',
    path: '/UpdateProductDetails',
    summary: 'Update a product from the full product object',
    tag,
    access: 'admin',
    response: ProductSchema,
    refusals: [404, 409],
    body: UpdateProductSchema,
  }),
  feed: endpoint({
    method: 'GET',
    path: '/sync/catalogue',
    summary:
      'Catalogue delta feed for offline devices: changes since a cursor, paged (a page with more after it names the next in a Link: rel="next" header); ETag and 304 when nothing changed',
    tag: 'Sync',
    access: 'public',
    response: CatalogueDeltaSchema,
    query: FeedQuerySchema,
  }),
} as const;
