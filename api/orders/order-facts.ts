/**
 * What pricing an order reads that only a catalogue change can change: the pincode's delivery
 * area, the slots, the closed dates, and each product with its variations and first picture. Every
 * writer of those moves the catalogue version in its own transaction (`bumpVersion`,
 * `bumpSlotsVersion`; the page heads' cache, `api/pages/page-cache.ts`, keeps products and areas
 * on the same rule). So an order reads the version in its transaction (one one-row query) and
 * takes the rest from this process's memory while the version stands; a change by any process is
 * seen by the next order. Six statements of a new order on PostgreSQL became one, and each
 * statement is a round trip of the order's transaction (issue 47: 19 statements against 15 a week
 * earlier, and orders a second fell in proportion).
 *
 * Only what was read is kept (never a read in flight: a transaction that fails leaves nothing
 * another must wait on), and a transaction that reads an older version than the newest seen (a
 * slower one, under way when a change committed) reads the database itself.
 */
import type { DeliveryArea } from '../../domain/delivery-areas.js';
import type { ClosedDate, DeliverySlot } from '../../domain/slots.js';
import { currentVersion, type Executor } from '../catalogue/catalogue.repository.js';
import { findAreaByPincode } from '../delivery-areas/delivery-area.repository.js';
import { listClosures, listSlots } from '../slots/slot.repository.js';
import { type ProductFacts, readProductFacts } from './order.pricing.js';

/** A phone's shop asks for a few hundred products and pincodes; past this, a map starts again. */
const MAX_KEPT = 2_000;

/** The facts one order reads, through the cache of its version or straight from the database. */
export interface OrderFacts {
  area(pincode: string): Promise<DeliveryArea | null>;
  /** Every slot, retired ones too (an order may name one), in the shop's order. */
  slots(): Promise<DeliverySlot[]>;
  closures(from: string): Promise<ClosedDate[]>;
  /** The live products among `ids` (a deleted or unknown one is absent). */
  products(ids: readonly number[]): Promise<Map<number, ProductFacts>>;
}

/** The facts read straight from the database, for a path that keeps no cache. */
export function databaseFacts(db: Executor): OrderFacts {
  return {
    area: (pincode) => findAreaByPincode(db, pincode),
    slots: () => listSlots(db, { retired: true }),
    closures: (from) => listClosures(db, from),
    products: (ids) => readProductFacts(db, ids),
  };
}

export class OrderFactsCache {
  #version = -1;
  #areas = new Map<string, DeliveryArea | null>();
  #slots: DeliverySlot[] | null = null;
  #closures = new Map<string, ClosedDate[]>();
  #products = new Map<number, ProductFacts>();

  /** The facts as of the version `db` reads now (one query), kept while that version stands. */
  async open(db: Executor): Promise<OrderFacts> {
    const version = await currentVersion(db);
    if (version > this.#version) {
      this.#version = version;
      this.#areas = new Map();
      this.#slots = null;
      this.#closures = new Map();
      this.#products = new Map();
    }
    const read = databaseFacts(db);
    if (version < this.#version) return read;
    return {
      area: async (pincode) => {
        if (this.#areas.has(pincode)) return this.#areas.get(pincode) ?? null;
        const area = await read.area(pincode);
        if (this.#version === version) keep(this.#areas, pincode, area);
        return area;
      },
      slots: async () => {
        if (this.#slots) return this.#slots;
        const slots = await read.slots();
        if (this.#version === version) this.#slots = slots;
        return slots;
      },
      closures: async (from) => {
        const kept = this.#closures.get(from);
        if (kept) return kept;
        const closures = await read.closures(from);
        if (this.#version === version) keep(this.#closures, from, closures);
        return closures;
      },
      products: async (ids) => {
        const missing = ids.filter((id) => !this.#products.has(id));
        const fresh = missing.length ? await read.products(missing) : new Map<number, ProductFacts>();
        // Only a product found is kept: an id not there now is asked for again.
        if (this.#version === version) for (const [id, facts] of fresh) keep(this.#products, id, facts);
        const found = new Map<number, ProductFacts>();
        for (const id of ids) {
          const facts = this.#products.get(id) ?? fresh.get(id);
          if (facts) found.set(id, facts);
        }
        return found;
      },
    };
  }
}

function keep<K, V>(map: Map<K, V>, key: K, value: V): void {
  if (map.size >= MAX_KEPT) map.clear();
  map.set(key, value);
}
