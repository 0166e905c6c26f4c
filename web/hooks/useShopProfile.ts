/**
 * The shop's profile as the device keeps it (the catalogue feed's `profile` setting): the footer,
 * About us, Contact, the policies and the order pages read it here, online or not. Until
 * IndexedDB answers it is the default profile, which shows a name and no contact at all, so no
 * page ever shows a stranger's number. Seeing the profile also teaches the first screen's header
 * the name (web/shop-name.ts).
 */
import { useEffect } from 'react';
import { DEFAULT_PROFILE, type ShopProfile } from '../../domain/shop-profile.js';
import { learnShopName } from '../shop-name.js';
import { useShopSettings } from './useDelivery.js';

export function useShopProfile(): ShopProfile {
  const profile = useShopSettings()?.profile;
  useEffect(() => {
    if (profile) learnShopName(profile.name);
  }, [profile]);
  return profile ?? DEFAULT_PROFILE;
}
