import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PROFILE,
  DEMO_PROFILE,
  fssaiLine,
  gstinCheckChar,
  gstinProblem,
  isFssaiNumber,
  profileMessages,
  ShopProfileSchema,
  socialLinks,
  storeCoordinates,
} from '../../domain/shop-profile.js';
import { parseWith } from '../../domain/validation.js';

describe('FSSAI number', () => {
  it('takes 14 digits starting with 1 (licence) or 2 (registration)', () => {
    expect(isFssaiNumber('10020042007183')).toBe(true);
    expect(isFssaiNumber('21521058000123')).toBe(true);
  });
  it('refuses a short, long, lettered or wrongly started number', () => {
    for (const bad of ['1002004200718', '100200420071831', '1002004200718A', '30020042007183', '']) {
      expect(isFssaiNumber(bad), bad).toBe(false);
    }
  });
  it('is printed as a bill prints it', () => {
    expect(fssaiLine('10020042007183')).toBe('FSSAI Lic. No. 10020042007183');
    expect(fssaiLine('21521058000123')).toBe('FSSAI Reg. No. 21521058000123');
    expect(fssaiLine('')).toBe('');
  });
});

describe('GSTIN', () => {
  it("verifies the check character (GSTN's published examples)", () => {
    expect(gstinCheckChar('27AAPFU0939F1Z')).toBe('V');
    expect(gstinProblem('27AAPFU0939F1ZV')).toBeNull();
    expect(gstinProblem('29AAGCB7383J1Z4')).toBeNull();
  });
  it('refuses a wrong check character, and a short or misshapen one', () => {
    expect(gstinProblem('27AAPFU0939F1ZW')).toBe(profileMessages.gstin);
    expect(gstinProblem('27AAPFU0939F1Z')).toBe(profileMessages.gstinShape);
    expect(gstinProblem('27AAPFU0939F1AV')).toBe(profileMessages.gstinShape);
  });
});

describe('the profile schema', () => {
  const good = { ...DEMO_PROFILE, fssai: '10020042007183', gstin: '27aapfu0939f1zv' };
  it('takes the demo and a full profile, trimming and upper-casing', () => {
    expect(v.parse(ShopProfileSchema, DEFAULT_PROFILE)).toEqual(DEFAULT_PROFILE);
    expect(v.parse(ShopProfileSchema, good).gstin).toBe('27AAPFU0939F1ZV');
    expect(
      v.parse(ShopProfileSchema, { ...good, care: { ...good.care, whatsapp: '+91 98765 01234' } }).care
        .whatsapp,
    ).toBe('9876501234');
  });
  it('names the field of each bad value, with its own message', () => {
    const cases: [unknown, string, string][] = [
      [{ ...good, fssai: '1234' }, 'fssai', profileMessages.fssai],
      [{ ...good, gstin: '27AAPFU0939F1ZW' }, 'gstin', profileMessages.gstin],
      [{ ...good, name: ' ' }, 'name', profileMessages.name],
      [{ ...good, shortName: 'A very long app name' }, 'shortName', profileMessages.shortName],
      [{ ...good, care: { ...good.care, email: 'nope' } }, 'care.email', profileMessages.email],
      [{ ...good, care: { ...good.care, phone: '12345' } }, 'care.phone', profileMessages.phone],
      [
        { ...good, social: { ...good.social, instagram: 'javascript:alert(1)' } },
        'social.instagram',
        profileMessages.url,
      ],
      [{ ...good, stores: [{ ...good.stores[0], pin: '060017' }] }, 'stores.0.pin', profileMessages.pin],
      [{ ...good, stores: [{ ...good.stores[0], name: '' }] }, 'stores.0.name', profileMessages.storeName],
    ];
    for (const [input, field, message] of cases) {
      expect(parseWith(ShopProfileSchema, input), field).toEqual({ ok: false, field, message });
    }
  });
});

describe('reading the profile', () => {
  it('lists only the social profiles the shop has', () => {
    expect(
      socialLinks({ social: { instagram: 'https://instagram.com/x', facebook: '', youtube: '' } }),
    ).toEqual([{ id: 'instagram', name: 'Instagram', url: 'https://instagram.com/x' }]);
  });
  it("finds a store's coordinates in OpenStreetMap and Google Maps links", () => {
    expect(storeCoordinates(DEMO_PROFILE.stores[0]?.mapUrl ?? '')).toEqual({ lat: 30.7398, lon: 76.7827 });
    expect(storeCoordinates('https://www.google.com/maps/place/X/@30.71,76.72,17z')).toEqual({
      lat: 30.71,
      lon: 76.72,
    });
    expect(storeCoordinates('https://maps.google.com/?q=30.5,76.5')).toEqual({ lat: 30.5, lon: 76.5 });
    expect(storeCoordinates('https://maps.app.goo.gl/abc')).toBeNull();
  });
});
