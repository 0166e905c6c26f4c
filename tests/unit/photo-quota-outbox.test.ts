import { expect, it } from 'vitest';
import { giftMessages } from '../../domain/gifts.js';
import { classifyPhotoAnswer, photoRefused } from '../../domain/outbox.js';

/**
 * A queued order's photo refused because the account's photos take their 50 MB: the order waits
 * for the shopper with the server's reason, and is not sent again unchanged (it would be refused
 * again until a photo goes).
 */
it("makes a queued photo cake wait for the shopper with the quota's reason", () => {
  const outcome = classifyPhotoAnswer(
    {
      status: 413,
      body: { isSuccess: false, data: null, sys_message: giftMessages.photoQuotaFull },
      retryAfter: null,
    },
    Date.now(),
    'Photo Cake',
  );
  expect(outcome).toEqual({
    kind: 'attention',
    problem: {
      kind: 'refused',
      status: 413,
      message: photoRefused('Photo Cake', giftMessages.photoQuotaFull),
      data: null,
    },
  });
  expect(photoRefused('Photo Cake', giftMessages.photoQuotaFull)).toContain(giftMessages.photoQuotaFull);
});
