import { Link } from 'react-router-dom';
import { CODE_MINUTES, UNORDERED_PHOTO_DAYS } from '../../domain/privacy.js';
import { useShopProfile } from '../hooks/useShopProfile.js';
import { useTitle } from '../hooks/useTitle.js';

/**
 * What the shop keeps about a shopper, why, and for how long, and whom to write to. Each time
 * said here is the server's own rule (the figures are `domain/privacy.ts`, held against the
 * server's constants by a test). The address is the shop's public one, which the contact form's
 * mail also reaches unless the shop routes it elsewhere (`SHOP_EMAIL`).
 */
export default function Privacy() {
  useTitle('Privacy');
  const profile = useShopProfile();
  const email = profile.care.email || profile.grievance.email;
  const mail = email ? <a href={`mailto:${email}`}>{email}</a> : <Link to="/contact">our contact page</Link>;
  return (
    <div className="page prose-page">
      <h1>Privacy</h1>
      <p>
        {profile.name} keeps only what it needs to bake, pack and deliver your order and to let you follow it.
        We never sell your details or share them for advertising. Questions, a copy of what we hold about you,
        or a correction or deletion: write to {mail}.
      </p>

      <h2>Your account</h2>
      <p>
        <strong>What:</strong> your name, email address, phone number and, if you add them, your address and
        the recipients you save. Your password is stored only as a one-way hash that nobody can read back; the
        one-time codes we email you are kept the same way and stop working after {CODE_MINUTES} minutes.
      </p>
      <p>
        <strong>Why:</strong> to sign you in, fill in your orders and reach you about them.
      </p>
      <p>
        <strong>How long:</strong> as long as you have an account. Write to us and we close it; your orders
        stay as described below.
      </p>

      <h2>Your orders</h2>
      <p>
        <strong>What:</strong> what you ordered, the delivery date and slot, the name, phone and address it
        goes to, the message on a cake or card, how you paid and the payment's reference. Card, UPI and bank
        details go to the payment provider (Razorpay), never to us.
      </p>
      <p>
        <strong>Why:</strong> to make and deliver the order, to answer questions about it, and because the law
        requires a shop to keep its sales records.
      </p>
      <p>
        <strong>How long:</strong> for as long as the law requires us to keep sales records.
      </p>

      <h2>Photos for photo cakes</h2>
      <p>
        <strong>What:</strong> the photo you choose for a photo cake. We remove the information a phone stores
        inside a photo (such as where it was taken) when it is uploaded. Only you and the shop's staff can see
        it.
      </p>
      <p>
        <strong>Why:</strong> to print it on your cake.
      </p>
      <p>
        <strong>How long:</strong> a photo that is not part of an order is deleted {UNORDERED_PHOTO_DAYS} days
        after you add it. A photo on an order is kept with that order, so we can reprint it or answer a
        question about the cake.
      </p>

      <h2>Order updates on your devices</h2>
      <p>
        <strong>What:</strong> if you turn on order updates, the address your browser gives us for sending
        notifications to this device, linked to your account.
      </p>
      <p>
        <strong>Why:</strong> to tell you when your order's status changes, for example when it is on its way.
      </p>
      <p>
        <strong>How long:</strong> until you turn order updates off, log out on that device, or your browser
        tells us the address no longer works.
      </p>

      <h2>Messages and our mailing list</h2>
      <p>
        A message from the <Link to="/contact">contact form</Link> comes to our inbox with your email address,
        so we can answer it. If you subscribe to our mails, we keep your email address from when you confirm
        it until you unsubscribe with the link in any of our mails.
      </p>

      <h2>On your phone or computer</h2>
      <p>
        The shop keeps its catalogue, your cart and, while you are signed in, your orders and saved recipients
        in this browser, so it works without a connection. Logging out removes your account's details from the
        device; an order still waiting to be sent stays there, hidden, until you sign in again and it is sent.
      </p>
    </div>
  );
}
