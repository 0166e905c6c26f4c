/**
 * Who sells the order, under its bill on order success and the order page: the shop's legal name
 * and its FSSAI licence, which FSSAI asks to be on every bill and receipt since 1 October 2021, and
 * its GSTIN where it has one. From the device's profile, so it reads offline too; a shop that has
 * not written them shows only its name.
 */
import { fssaiLine } from '../../domain/shop-profile.js';
import { useShopProfile } from '../hooks/useShopProfile.js';

export function OrderSeller() {
  const profile = useShopProfile();
  const parts = [
    `Sold by ${profile.legalName || profile.name}`,
    fssaiLine(profile.fssai),
    profile.gstin && `GSTIN ${profile.gstin}`,
  ].filter(Boolean);
  return (
    <p className="order-seller muted" data-testid="order-seller">
      {parts.join(' · ')}
    </p>
  );
}
