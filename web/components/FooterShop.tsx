/**
 * The footer's words about the shop itself, all from its profile (domain/shop-profile.ts): how to
 * reach customer care, and what the law asks every e-commerce shop to show plainly: its legal name,
 * its FSSAI licence, its grievance officer (Consumer Protection (E-Commerce) Rules, 2020). A detail
 * the shop does not have is left out, never shown as an empty label.
 */
import { Link } from 'react-router-dom';
import { fssaiLine, logoUrl, type ShopProfile, telHref, whatsappHref } from '../../domain/shop-profile.js';

export function FooterContact({ profile }: { profile: ShopProfile }) {
  const { phone, whatsapp, email, hours } = profile.care;
  return (
    <div>
      <h2>Contact</h2>
      {phone && (
        <p>
          <a href={telHref(phone)}>{phone}</a>
        </p>
      )}
      {whatsapp && (
        <p>
          <a href={whatsappHref(whatsapp)} target="_blank" rel="noopener noreferrer">
            WhatsApp {whatsapp}
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        </p>
      )}
      {email && (
        <p>
          <a href={`mailto:${email}`}>{email}</a>
        </p>
      )}
      {hours && <p>{hours}</p>}
      {!phone && !email && !whatsapp && (
        <p>
          <Link to="/contact">Write to us</Link>
        </p>
      )}
    </div>
  );
}

/** The name and tagline, then the legal lines. */
export function FooterLegal({ profile }: { profile: ShopProfile }) {
  const g = profile.grievance;
  const grievanceContacts = [g.phone, g.email].filter(Boolean).join(', ');
  return (
    <>
      <p className="footer__shop">
        {profile.logo && (
          <img
            className="footer__logo"
            src={logoUrl(profile.logo, 96)}
            alt=""
            width={48}
            height={48}
            loading="lazy"
          />
        )}
        <Link to="/home">{profile.name}</Link>
        {profile.tagline && <> · {profile.tagline}</>}
      </p>
      {(profile.legalName || profile.fssai || profile.gstin) && (
        <p className="footer__legal">
          {[profile.legalName, fssaiLine(profile.fssai), profile.gstin && `GSTIN ${profile.gstin}`]
            .filter(Boolean)
            .join(' · ')}
        </p>
      )}
      {g.name && (
        <p className="footer__legal">
          Grievance officer: {g.name}
          {g.designation && `, ${g.designation}`}
          {grievanceContacts && ` (${grievanceContacts})`}
        </p>
      )}
    </>
  );
}
