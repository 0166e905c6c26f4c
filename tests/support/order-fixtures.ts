/**
 * Products written straight into the catalogue tables (the catalogue feature's
 * own code is not needed to order), and order requests as a client sends them.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { earliestDeliveryDate } from '../../domain/delivery.js';
import { addDays } from '../../domain/india-time.js';
import type { OrderRequestInput, PlacedOrder } from '../../domain/orders.js';

export interface FixtureProduct {
  id: number;
  title: string;
  price: number;
  /** `name` is the option's name ("Weight"), `value` what was chosen ("1 kg"), as the catalogue keeps them. */
  variations: { id: number; name: string; value: string; price: number }[];
}

let counter = 0;

export async function insertProduct(
  app: FastifyInstance,
  fields: {
    title?: string;
    price?: number;
    variations?: { value: string; name?: string; price: number }[];
    deleted?: boolean;
    sizeOrWeight?: string;
  } = {},
): Promise<FixtureProduct> {
  counter += 1;
  const now = Date.now();
  const title = fields.title ?? `Fixture Cake ${counter}`;
  const price = fields.price ?? 500;
  const { id } = await app.db
    .insertInto('products')
    .values({
      title,
      description: '<p>A cake.</p>',
      price,
      ...(fields.sizeOrWeight === undefined ? {} : { size_or_weight: fields.sizeOrWeight }),
      version: 1,
      created_at: now,
      updated_at: now,
      deleted_at: fields.deleted ? now : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const variations: FixtureProduct['variations'] = [];
  for (const [position, v] of (fields.variations ?? []).entries()) {
    const row = await app.db
      .insertInto('variations')
      .values({ product_id: id, name: v.name ?? 'Weight', value: v.value, price: v.price, position })
      .returning('id')
      .executeTakeFirstOrThrow();
    variations.push({ id: row.id, name: v.name ?? 'Weight', value: v.value, price: v.price });
  }
  return { id, title, price, variations };
}

/** A new price, as the admin's edit writes it: with a move of the catalogue version (`bumpCatalogue`). */
export async function setPrice(app: FastifyInstance, productId: number, price: number): Promise<void> {
  await app.db.updateTable('products').set({ price }).where('id', '=', productId).execute();
  await bumpCatalogue(app);
}

/**
 * Moves the catalogue version after a test changed products, areas or slots with SQL of its own:
 * every writer of the app does (`bumpVersion`), and an order's facts are kept per version
 * (`api/orders/order-facts.ts`), so a change without it is not seen by the next order.
 */
export async function bumpCatalogue(app: FastifyInstance): Promise<void> {
  await app.db
    .updateTable('catalogue_state')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', 1)
    .execute();
}

/** A delivery date the server accepts whatever the hour: the day after the earliest. */
export function deliveryDate(): string {
  return addDays(earliestDeliveryDate(new Date()), 1);
}

/** A valid order for Mohali (delivery ₹150) of `lines`, priced as the shop prices them. */
export function orderRequest(
  lines: { product: FixtureProduct; quantity?: number; variationIndex?: number }[],
  overrides: Partial<OrderRequestInput> = {},
): OrderRequestInput {
  const items = lines.map(({ product, quantity = 1, variationIndex }) => {
    const variation = variationIndex === undefined ? undefined : product.variations[variationIndex];
    return {
      ProductID: product.id,
      VariationID: variation?.id ?? null,
      ProductName: product.title,
      Price: variation?.price ?? product.price,
      Quantity: quantity,
      ProductImage: '/images/cake.webp',
    };
  });
  const subtotal = items.reduce((s, i) => s + i.Price * i.Quantity, 0);
  return {
    DeliveryDate: deliveryDate(),
    CustomerName: 'Asha Verma',
    CustomerEmail: 'asha@example.com',
    CustomerPhone: '9876543210',
    CustomerAddress: 'House 12, Sector 70',
    State: 'Punjab',
    City: 'Mohali',
    CustomerPincode: '160062',
    PaymentMethod: 'Cash on Delivery',
    TotalAmount: subtotal + 150,
    OrderItems: items,
    ...overrides,
  };
}

export const newKey = (): string => randomUUID();

/** The server's answer to a placed cash-on-delivery order, as the outbox's tests' fake shops give it. */
export function placedAnswer(
  orderID: number,
  body: OrderRequestInput,
  items: PlacedOrder['items'] = [],
): PlacedOrder {
  return {
    orderID,
    status: 'placed',
    paymentMethod: 'Cash on Delivery',
    deliveryDate: body.DeliveryDate,
    subtotal: body.TotalAmount,
    deliveryCharge: 0,
    slotCharge: 0,
    deliverySlot: null,
    discount: 0,
    totalAmount: body.TotalAmount,
    couponCode: null,
    items,
    orderDate: new Date().toISOString(),
  };
}
