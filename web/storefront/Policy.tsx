import { useLocation } from 'react-router-dom';
import { POLICIES, policyAt } from '../../domain/policies.js';
import { policyText } from '../../domain/policy-defaults.js';
import { renderPolicy } from '../../domain/policy-text.js';
import { useDeliveryFacts } from '../hooks/useDelivery.js';
import { usePaysOnline } from '../hooks/usePaysOnline.js';
import { useTitle } from '../hooks/useTitle.js';
import NotFound from './NotFound.js';

/**
 * A policy page (Shipping and delivery, Cancellation and refunds, Privacy, Terms), one screen for
 * the four addresses of `POLICIES`. Its text is the owner's (Settings → Policies) when written,
 * else the default written from the device's copy of the shop's settings and delivery facts, so
 * the page reads offline after a sync like Contact. The HTML is `renderPolicy`'s, which escapes
 * every character of the text and makes only headings, lists, paragraphs, bold and https/mail
 * links; the server cleaned the owner's text before keeping it as well.
 */
export default function Policy() {
  const key = policyAt(useLocation().pathname);
  const facts = useDeliveryFacts();
  const online = usePaysOnline();
  useTitle(key ? POLICIES[key].title : undefined);
  if (!key) return <NotFound />;
  const text = facts
    ? policyText(key, facts.settings.policies, {
        profile: facts.settings.profile,
        // A device's empty list is one not synced yet (a shop's real none is said by the server's pages).
        areas: facts.areas.length ? facts.areas : undefined,
        slots: facts.slots,
        noticeDays: facts.settings.photoCakeNoticeDays,
        cancelHours: facts.settings.cancelHoursBeforeSlot,
        online,
      })
    : null;
  return (
    <div className="page prose-page policy-page">
      <h1>{POLICIES[key].title}</h1>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: renderPolicy escapes the whole text and makes only its few tags. */}
      {text !== null && <div dangerouslySetInnerHTML={{ __html: renderPolicy(text) }} />}
    </div>
  );
}
