/** Row types of the shop's settings. They never leave the repository. */

export interface ShopSettingsTable {
  /** A key of `SETTINGS` (domain/settings.ts); a row of a key this version does not know is ignored. */
  key: string;
  /** The value as JSON. */
  value: string;
  /** The catalogue version of its last change: the feed sends a device setting past that. */
  version: number;
  updated_at: number;
}

export interface SettingsTables {
  shop_settings: ShopSettingsTable;
}
