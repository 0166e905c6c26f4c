/**
 * The spec's user-facing messages (sections 5 and 8), word for word, in one
 * place. Screens and the server both take their texts from here, so a
 * message changes once. Messages that take a value are functions.
 */
import { tooLongMessage } from './single-line.js';

export const messages = {
  // Register (section 5)
  nameRequired: 'Name is required.',
  emailInvalid: 'Please enter a valid email.',
  passwordRequired: 'Password is required.',
  passwordMin: 'Minimum 8 characters required.',
  passwordComplexity: 'Must include uppercase, lowercase, number & special character.',
  passwordsDoNotMatch: 'Passwords do not match.',
  phoneInvalid: 'Please enter a valid 10-digit phone number.',
  formInvalid: 'Please fill all required fields correctly.',
  // Login
  loginInvalid: 'Please enter valid email and password.',
  loginFailed: (sysMessage: string) => `Login failed: ${sysMessage}`,
  somethingWentWrongTryAgain: 'Something went wrong. Please try again.',
  // OTP
  otpInvalid: 'Please enter a valid 6-digit OTP.',
  otpNoEmail: 'Email not found. Please register first.',
  // "an OTP": the spec's article is a typo (DESIGN.md, departure 14).
  otpSent: 'Sent you an OTP in your email!',
  otpVerified: 'OTP Verified Successfully',
  otpWrong: 'Invalid OTP',
  somethingWentWrong: 'Something went wrong',
  // Session
  logoutFailed: 'Logout failed.',
  noUserLoggedIn: 'No user logged in',
  // Categories (admin)
  categoryNameRequired: 'Please enter a category name.',
  categoryAdded: 'Category added successfully!',
  categoryDeleteFailed: 'Failed to delete category!',
  // Products (admin)
  productFieldsRequired: 'Please fill all required fields and select an image.',
  productAdded: 'Product added successfully!',
  productDeleted: 'Product deleted successfully!',
  productDeleteConfirm: 'Are you sure you want to delete this product?',
  productDeleteNetwork: 'An error occurred while deleting the product.',
  productNotFound: 'Product not found.',
  productLoadError: 'Error loading product data.',
  productUpdated: 'Product updated successfully.',
  productUpdateFailed: 'Failed to update product.',
  errorPrefix: (message: string) => `Error: ${message}`,
  somethingWentWrongDot: 'Something went wrong.',
  // Storefront
  addedToCart: (title: string) => `${title} added to cart!`,
  noProductsFound: 'No products found',
  noResultsFound: 'No results found',
  searchResultsFor: (query: string) => `Search results for: ${query}`,
  copied: 'Copied!',
  // Checkout
  loginFirst: 'Please log in first.',
  loginToPlaceOrder: 'Please log in to place an order.',
  loginToCheckout: 'Please log in to proceed to checkout.',
  fillRequiredDetails: 'Please fill all required details.',
  orderFailed: 'Error placing order. Please try again.',
  deliveryDateInvalid: 'Please select a valid delivery date.',
  fullNameRequired: 'Full Name is required',
  stateRequired: 'State is required.',
  cityRequired: 'City is required.',
  addressRequired: 'Shipping Address is required',
  pincodeRequired: 'Pincode is required',
  paymentMethodRequired: 'Please select a payment method.',
  couponInvalid: 'Invalid coupon',
  couponApplied: (amount: string) => `Coupon applied: ${amount} off!`,
  // Orders
  noOrdersFound: 'No orders found.',
  loadingOrders: 'Loading orders...',
  ordersFetchFailed: 'Failed to fetch orders.',
  ordersFetchError: 'Error fetching orders. Please try again later.',
  // Profile
  profileFetchFailed: 'Failed to fetch profile.',
  profileUpdateFailed: 'Failed to update profile.',
  // Password reset
  resetOtpInvalid: 'OTP must be a 6-digit number.',
  resetPasswordRule:
    'New password is required, must be at least 8 characters long, and include a combination of upper/lowercase letters, numbers, and special characters.',
  resetConfirmMismatch: 'Confirm password must match the new password.',
  passwordResetDone: 'Password reset successfully!',
  // Accounts (server answers the spec does not word)
  passwordTooLong: 'Password must be at most 128 characters.',
  nameTooLong: tooLongMessage('Name', 100),
  addressTooLong: tooLongMessage('Address', 500),
  codeRequestAccepted: 'If this email can receive a code, we sent you an OTP in your email!',
  loginWrongCredentials: 'Invalid email or password.',
  loginNotVerified: 'Please verify your email with the OTP we sent before logging in.',
  loggedIn: 'Logged in successfully.',
  loggedOut: 'Logged out successfully.',
  tooManyAttempts: 'Too many attempts. Please wait a while and try again.',
  emailChangeNotAllowed: 'Your email cannot be changed here.',
  profileUpdated: 'Profile updated successfully.',
  // Orders and payments (ours: the spec has no text for these refusals)
  pincodeInvalid: 'Pincode must be 6 digits.',
  orderItemsRequired: 'Your cart is empty.',
  quantityInvalid: (max: number) => `Quantity must be a whole number from 1 to ${max}.`,
  priceInvalid: 'Each price must be a whole number of rupees.',
  totalInvalid: 'The order total must be a whole number of rupees.',
  deliveryDateTooEarly: (earliest: string) => `The earliest delivery date is ${earliest}.`,
  deliveryDateTooLate: (latest: string) => `The latest delivery date we accept is ${latest}.`,
  productUnavailable: (name: string) => `${name} is no longer available.`,
  productAmbiguous: (name: string) =>
    `More than one product is called ${name}. Please add it to the cart again.`,
  variationUnavailable: (name: string) => `The chosen option of ${name} is no longer available.`,
  pricesChanged: 'Prices have changed since you added these items. Please review the new total.',
  orderPlaced: 'Order placed successfully!',
  ordersForbidden: 'You can only see your own orders.',
  idempotencyKeyInvalid: 'The Idempotency-Key header must be a UUID.',
  orderInProgress: 'This order is still being placed. Please wait a moment.',
  idempotencyKeyReused: 'This Idempotency-Key was already used for a different order.',
  paymentNotVerified: 'The payment could not be verified.',
  paymentRequired: 'Please complete the online payment first.',
  paymentAmountMismatch: 'The payment amount does not match the order total.',
  paymentAlreadyUsed: 'This payment has already been used for another order.',
  onlinePaymentUnavailable: 'Online payment is not available. Please choose Cash on Delivery.',
  paymentProviderFailed: 'The payment provider is not answering. Please try again.',
} as const;

/** Storefront texts the spec does not word. */
export const storefrontMessages = {
  cartEmpty: 'Your cart is empty.',
  pageNotFound: 'Page not found.',
  productNotOnDevice: 'This product is not on this device yet. It appears once the catalogue has synced.',
  removedFromCart: (title: string) => `${title} removed from cart.`,
  cartCleared: 'Your cart is now empty.',
} as const;

export { pwaMessages } from './pwa-messages.js';
