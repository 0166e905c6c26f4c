/**
 * Checkout and outbox texts of ours (the spec's own texts are in
 * `messages.ts`). Plain words: a shopper on a bus with one bar of signal
 * must understand what happened to their order and what to do.
 */
export { outboxShellMessages } from './outbox-messages.js';

export const checkoutMessages = {
  heading: 'Checkout',
  addressHint: 'Include house/flat number, street, landmark, city and PIN.',
  pincodeHint: 'We fill in the city and state, and show the dates and slots we deliver there.',
  pincodeFirst: 'Enter your pincode',
  notDeliveredHere: 'Not delivered to this pincode',
  areasNotOnPhone:
    'This phone has not yet loaded the places we deliver to. Connect to the internet once, then try again.',
  areaFound: (city: string, state: string, charge: string) => `${city}, ${state} · delivery ${charge}`,
  areaChecking: 'Looking up this pincode…',
  couponLabel: 'Coupon code',
  couponApply: 'Apply',
  couponNeedsNetwork: 'Coupons are checked online. Please try again when you are back online.',
  couponRemoved: 'Coupon removed.',
  emptyCart: 'Your cart is empty. Add something before checking out.',
  paymentLegend: 'Payment',
  cod: 'Cash on Delivery',
  codNote:
    'Pay when your order arrives. Works offline too: the order is sent as soon as you are back online.',
  online: 'Pay online (UPI, cards, net banking)',
  onlineNote: 'You will be taken to our payment provider, Razorpay, to pay securely.',
  onlineTestNote: 'Test payments only: this shop runs a payment test in which no money moves.',
  onlineNeedsNetwork:
    'Online payment needs the internet. You are offline: choose Cash on Delivery, or wait until you are back online.',
  onlineUnavailable: 'Online payment is not available right now. Please choose Cash on Delivery.',
  placeOrder: 'Place Order',
  placing: 'Placing your order…',
  paying: 'Opening payment…',
  subtotal: 'Subtotal',
  deliveryCharges: 'Delivery Charges',
  total: 'Total',
  summary: 'Order summary',
  // Online payment
  payTitle: 'Pay online',
  payButton: (amount: string) => `Pay ${amount}`,
  payCancel: 'Cancel',
  payMethodsLabel: 'Ways to pay',
  payStandInNote:
    'Test payment: no money moves. This stands in for Razorpay because the shop runs with TEST_PAYMENTS=true.',
  paymentDescription: 'Order Payment',
  paymentCancelled: 'Payment cancelled. Your cart is unchanged.',
  paymentFailed: (reason: string) => `The payment did not go through: ${reason}`,
  paymentRetry: 'Try again',
  paymentUseCod: 'Pay with Cash on Delivery instead',
  paymentScriptFailed:
    'The payment page could not be loaded. Please check your connection and try again, or choose Cash on Delivery.',
  // The outbox
  queuedOffline:
    'You are offline. Your order is saved on this phone and will be sent when you are back online.',
  queuedRetrying:
    'We could not reach the shop yet. Your order is saved on this phone and will be sent automatically.',
  stillSending:
    'Your order is saved and is still being sent. You can keep shopping: it will not be placed twice.',
  stateAttention: 'Needs your attention',
  queuedHeading: 'Orders on this phone',
  queuedOrder: (date: string) => `Order made ${date}`,
  orderNumber: (id: number) => `Order #${id}`,
  lastTry: (reason: string) => `Last try: ${reason}`,
  // Attention
  repricedTitle: 'The shop’s figures have changed',
  repricedIntro: 'Please check the new figures. Nothing is charged until you confirm.',
  colItem: 'Item',
  colBefore: 'Before',
  colNow: 'Now',
  /** The server's reason names the coupon and its condition ("DIWALI10 ended on 2 Nov") where it can. */
  couponNoLonger: (code: string, why: string | null) =>
    why?.includes(code)
      ? `${why}, so the coupon no longer applies.`
      : `Coupon ${code} no longer applies${why ? `: ${why}` : '.'}`,
  confirmNew: (amount: string) => `Confirm new total ${amount}`,
  cancelOrder: 'Cancel order',
  cancelled: 'Order cancelled. Its items are back in your cart.',
  goneTitle: 'An item is no longer available',
  removeLine: 'Remove it and send the rest',
  dateTitle: 'That delivery date is no longer available',
  dateIntro: 'Please pick another date (the shop stops same-day orders at 6 PM).',
  dateSend: 'Send with this date',
  undeliverableTitle: 'We cannot deliver there',
  addressIntro: 'Change the delivery address to one we deliver to, and the order is sent again.',
  addressSend: 'Send to this address',
  signinTitle: 'Please log in again',
  signinIntro:
    'Your session ended. Log in with the same account and the order is sent at once. It stays saved meanwhile.',
  signinAction: 'Log in',
  defectTitle: 'This order could not be sent',
  defectIntro:
    'The shop already has an order under this order’s reference with other details, so this copy was not sent again. Please check My Orders; the fault was logged.',
  dismiss: 'Remove from this list',
  refusedTitle: 'The shop refused this order',
  codTitle: 'Cash on Delivery is not possible for this order',
  codIntro:
    'Pay online instead: the same order, paid now and sent at once. Or cancel it: the items go back to your cart.',
  codPayOnline: 'Pay online',
  // Order success
  successTitle: 'Thank you! Your order is placed.',
  successQueuedTitle: 'Your order is saved on this phone',
  successQueuedNext:
    'It will be sent to the shop as soon as your phone is back online, even if you close the app. You will see it under My Orders, and we never place it twice.',
  successSendingTitle: 'Sending your order…',
  successCancelledTitle: 'This order was cancelled',
  successMissing: 'There is no order to show here.',
  deliveryOn: 'Delivery date',
  deliverySlot: 'Delivery slot',
  deliverTo: 'Deliver to',
  draftKept: 'What you typed is kept on this phone until you place the order.',
  draftClear: 'Clear',
  draftCleared: 'Cleared what you typed.',
  paymentMethod: 'Payment',
  items: 'Items',
  continueShopping: 'Continue shopping',
  myOrders: 'My Orders',
  iosWarning:
    'On iPhone, Safari deletes a website’s saved data after 7 days without a visit. Add this shop to your Home Screen so a saved order is never lost.',
  iosInstall: 'How: tap Share, then “Add to Home Screen”.',
  notificationTitle: (id: number) => `Order #${id} placed`,
  notificationBody: (total: string) => `Your order of ${total} reached the shop.`,
} as const;

/**
 * A payment in progress that the shop finds on the phone when it opens again (its page died in
 * the UPI app, most often): what became of it, in the shopper's words. Never "failed" while it is
 * not known: a payment not yet confirmed may still place its order.
 */
export const paymentResumeMessages = {
  region: 'Your payment',
  confirmingTitle: 'Payment being confirmed',
  confirming: (amount: string) =>
    `We are confirming your payment of ${amount} with the bank. If it went through, your order is placed by itself, and you will never pay twice. Keep the items in your cart until then.`,
  confirmingOffline: 'You are offline: we will check as soon as you are back online.',
  openTitle: 'Your payment was not finished',
  open: (amount: string) =>
    `No payment of ${amount} has reached us or the bank's payment service yet. You can pay again (it is the same payment, so you are never charged twice), or go back to your cart.`,
  payAgain: (amount: string) => `Pay ${amount} again`,
  backToCart: 'Back to cart',
  placedTitle: (id: number) => `Order #${id} placed`,
  placed: (amount: string) => `Your payment of ${amount} was received and your order is placed.`,
  viewOrder: 'View order',
  refundedTitle: 'Payment refunded',
  close: 'Close',
  hide: 'Hide',
} as const;
