import {
  AddCategorySchema,
  type CatalogueDelta,
  type Category,
  type CategoryGroup,
  DeleteCategoryQuerySchema,
  DeleteProductQuerySchema,
  FeedQuerySchema,
  IdParamsSchema,
  type Product,
  ProductsQuerySchema,
  SearchQuerySchema,
  UpdateProductSchema,
} from './catalogue.js';
import { endpoint } from './contract.js';

/**
 * The catalogue endpoints of the spec (section 7) and the delta feed, under
 * the API base. `addProduct` takes multipart form data, which the schemas here
 * cannot describe; its fields are checked with `AddProductFieldsSchema`.
 */
const tag = 'Catalogue';

export const catalogueApi = {
  getCategories: endpoint<Category[]>()({
    method: 'GET',
    path: '/GetCategories',
    summary: 'Every category (id and name)',
    tag,
    access: 'public',
  }),
  getProducts: endpoint<Product[]>()({
    method: 'GET',
    path: '/ABCGetProducts',
    summary: 'Every product, or with ?categoryId= the products of one category',
    tag,
    access: 'public',
    query: ProductsQuerySchema,
  }),
  getProduct: endpoint<Product>()({
    method: 'GET',
    path: '/ABCGetProducts/{id}',
    summary: 'One product',
    tag,
    access: 'public',
    params: IdParamsSchema,
  }),
  getProductById: endpoint<Product>()({
    method: 'GET',
    path: '/GetProductById/{id}',
    summary: 'One product (numeric id)',
    tag,
    access: 'public',
    params: IdParamsSchema,
  }),
  search: endpoint<Product[]>()({
    method: 'GET',
    path: '/search',
    summary: 'Products whose title, description or category name contains q (case-insensitive), best first',
    tag,
    access: 'public',
    query: SearchQuerySchema,
  }),
  topProductsByCategory: endpoint<CategoryGroup[]>()({
    method: 'GET',
    path: '/GetTopProductsByCategory',
    summary: 'Products grouped by category name, at most 6 per category',
    tag,
    access: 'public',
  }),
  addCategory: endpoint<Category>()({
    method: 'POST',
    path: '/AddCategory',
    summary: 'Add a category ({CategoryName}); a name already in use is a 409',
    tag,
    access: 'admin',
    body: AddCategorySchema,
  }),
  deleteCategory: endpoint<{ categoryID: number; detachedProducts: number }>()({
    method: 'DELETE',
    path: '/DeleteCategory',
    summary: 'Delete a category; products keep their other categories (the category is detached from them)',
    tag,
    access: 'admin',
    query: DeleteCategoryQuerySchema,
  }),
  addProduct: endpoint<Product>()({
    method: 'POST',
    path: '/AddProductForDash',
    summary:
      'Add a product (multipart: CategoryID repeated, Title, Description, LabelHeading, LabelDescription, Price, SizeOrWeight, images, variationsJson)',
    tag,
    access: 'admin',
  }),
  deleteProduct: endpoint<{ productID: number }>()({
    method: 'DELETE',
    path: '/DeleteProduct',
    summary: 'Delete a product (it disappears from every list; devices learn it from the feed)',
    tag,
    access: 'admin',
    query: DeleteProductQuerySchema,
  }),
  updateProduct: endpoint<Product>()({
    method: 'PUT',
    path: '/UpdateProductDetails',
    summary: 'Update a product from the full product object',
    tag,
    access: 'admin',
    body: UpdateProductSchema,
  }),
  feed: endpoint<CatalogueDelta>()({
    method: 'GET',
    path: '/sync/catalogue',
    summary:
      'Catalogue delta feed for offline devices: changes since a cursor, paged; ETag and 304 when nothing changed',
    tag: 'Sync',
    access: 'public',
    query: FeedQuerySchema,
  }),
} as const;
