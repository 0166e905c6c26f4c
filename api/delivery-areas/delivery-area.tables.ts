/** Row types of the delivery areas. They never leave the repository: callers get `domain/delivery-areas.ts` shapes. */

export interface DeliveryAreasTable {
  pincode: string;
  city: string;
  state: string;
  /** Rupees. */
  charge: number;
  /** The slot ids it gets as a JSON array; null: every slot of the shop. */
  slot_ids: string | null;
  /** 1 when today's date is offered there. */
  same_day: number;
  /** The catalogue version of the row's last change (its removal too): the feed sends it past that. */
  version: number;
  updated_at: number;
  /** Set when the pincode was removed: the row stays so the removal travels in the feed. */
  deleted_at: number | null;
}

export interface DeliveryAreaTables {
  delivery_areas: DeliveryAreasTable;
}
