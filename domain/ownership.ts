/**
 * Whose data a row on the device is. A phone is shared (DESIGN, "Offline and
 * local-first"): every order row and history copy the device keeps names its
 * account, and it is shown to that account only, while it is signed in.
 */
export function isOwnedBy(row: { userId: number }, userId: number | null | undefined): boolean {
  // 0 is what a row without an owner reads as (`upgradeRow`): nobody's, so shown to nobody.
  return typeof userId === 'number' && userId > 0 && row.userId === userId;
}
