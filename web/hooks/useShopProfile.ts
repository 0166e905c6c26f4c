/**
 * The shop's profile as the device keeps it (the catalogue feed's `profile` setting): the footer,
 * About us, Contact, the policies and the order pages read it here, online or not. Until
 * IndexedDB answers it is the default profile under the header's name, with no contact at all, so
 * no page ever shows a stranger's name or number. Seeing the profile also teaches the first screen's header
 * the name (web/shop-name.ts).
 */
import { useEffect } from 'react';
import { DEFAULT_PROFILE, type ShopProfile } from '../../domain/shop-profile.js';
import { learnShopName, shopName } from '../shop-name.js';
import { useShopSettings } from './useDelivery.js';

let beforeDevice: ShopProfile = DEFAULT_PROFILE;

/**
 * The default profile under the name the header already shows (the page's, or the one the device
 * learned): the build's default name in the footer for the moment before IndexedDB answered was
 * another shop's name on a renamed shop's page.
 */
function untilTheDeviceAnswers(): ShopProfile {
  const name = shopName();
  if (beforeDevice.name !== name) beforeDevice = { ...DEFAULT_PROFILE, name };
  return beforeDevice;
}

export function useShopProfile(): ShopProfile {
  const profile = useShopSettings()?.profile;
  useEffect(() => {
    if (profile) learnShopName(profile.name);
  }, [profile]);
  return profile ?? untilTheDeviceAnswers();
}
