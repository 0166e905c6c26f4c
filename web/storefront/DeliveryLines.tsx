/**
 * The product page's delivery words: its benefit bullets (which end with where it is
 * delivered) and its shipping details, both from the device's delivery areas and the photo cake
 * notice (domain/product-page.ts), so they change with the next catalogue sync.
 */
import type { Product } from '../../domain/catalogue.js';
import { productBenefits, shippingDetails } from '../../domain/product-page.js';
import { useShopSettings } from '../hooks/useDelivery.js';
import { useDeliveryFacts } from '../hooks/useDeliveryFacts.js';

type Delivered = Pick<Product, 'categories' | 'photoCake'>;

export function ProductBenefits({ product }: { product: Delivered }) {
  const facts = useDeliveryFacts();
  const eggless = useShopSettings()?.profile.eggless;
  return (
    <ul className="benefits">
      {productBenefits(product, facts, { eggless }).map((b) => (
        <li key={b}>{b}</li>
      ))}
    </ul>
  );
}

export function ShippingDetails({ product }: { product: Delivered }) {
  return <p>{shippingDetails(product, useDeliveryFacts())}</p>;
}
