import { Link } from 'react-router-dom';
import { deliveryLine, deliveryWhere } from '../../domain/delivery-words.js';
import { giftMessages } from '../../domain/gifts.js';
import { POLICIES } from '../../domain/policies.js';
import { fssaiLine, logoUrl, paragraphs } from '../../domain/shop-profile.js';
import { useDeliveryFacts } from '../hooks/useDeliveryFacts.js';
import { useShopProfile } from '../hooks/useShopProfile.js';
import { useTitle } from '../hooks/useTitle.js';
import { StoreList } from './StoreList.js';

/*
 * About us, all from the shop's profile (its story, stores, legal name and licence, as the owner
 * wrote them on Settings → Shop profile) and its delivery areas: nothing here is fixed copy, so a
 * shop never tells another shop's story. The law asks for the legal name and the address of every
 * store to be shown plainly (Consumer Protection (E-Commerce) Rules, 2020).
 */
export default function AboutUs() {
  useTitle('About us');
  const { areas, noticeDays } = useDeliveryFacts();
  const profile = useShopProfile();
  const story = paragraphs(profile.story);
  return (
    <div className="page prose-page">
      <h1>About us</h1>
      {profile.logo && (
        <img
          className="about__logo"
          src={logoUrl(profile.logo, 320)}
          alt={`${profile.name} logo`}
          width={160}
          height={160}
        />
      )}
      {story.length ? (
        story.map((p) => <p key={p}>{p}</p>)
      ) : (
        <p>
          {profile.name}
          {profile.tagline ? `: ${profile.tagline}` : ''}.
        </p>
      )}
      <p>
        {deliveryLine(areas)}. {deliveryWhere(areas)} {giftMessages.photoCakeNotice(noticeDays)}
      </p>
      {profile.stores.length > 0 && (
        <>
          <h2>{profile.stores.length === 1 ? 'Our store' : 'Our stores'}</h2>
          <StoreList stores={profile.stores} />
        </>
      )}
      {(profile.legalName || profile.fssai || profile.gstin) && (
        <>
          <h2>Who we are</h2>
          <ul>
            {profile.legalName && <li>{profile.legalName}</li>}
            {profile.fssai && <li>{fssaiLine(profile.fssai)}</li>}
            {profile.gstin && <li>GSTIN {profile.gstin}</li>}
          </ul>
        </>
      )}
      <h2>Our policies</h2>
      <ul>
        {Object.values(POLICIES).map((p) => (
          <li key={p.path}>
            <Link to={p.path}>{p.title}</Link>
          </li>
        ))}
      </ul>
      <p>
        <Link to="/contact">Contact us</Link> with any question.
      </p>
    </div>
  );
}
