/**
 * The shop's stores from its profile (Contact, About us): each with its address and PIN, phone,
 * hours and map link, and on Contact a map shown when the shopper asks for it. The map comes from
 * another site, so nothing is fetched from it (or told about the visit) before that; offline the
 * list still reads, without the map. A store's map link names where it is (storeCoordinates); a
 * link that names no place is shown as a link only.
 */
import { useState } from 'react';
import { STORE_MAP_ORIGIN } from '../../domain/browser-origins.js';
import { type Store, storeAddress, storeCoordinates, telHref } from '../../domain/shop-profile.js';

export function StoreList({ stores, maps = false }: { stores: readonly Store[]; maps?: boolean }) {
  return (
    <ul className="stores">
      {stores.map((s, i) => (
        // Two stores may share a name; their order is the owner's.
        // biome-ignore lint/suspicious/noArrayIndexKey: the list is the profile's, never reordered here
        <li key={i}>
          <h3>{s.name}</h3>
          <p>{storeAddress(s)}</p>
          {s.phone && (
            <p>
              <a href={telHref(s.phone)}>{s.phone}</a>
            </p>
          )}
          {s.hours && <p>Open {s.hours}</p>}
          {maps ? <StoreMap store={s} /> : s.mapUrl && <MapLink store={s} />}
        </li>
      ))}
    </ul>
  );
}

function MapLink({ store }: { store: Store }) {
  return (
    <a
      href={store.mapUrl}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={`Open the map of ${store.name} (opens in a new tab)`}
    >
      Open the map
    </a>
  );
}

/** OpenStreetMap's embeddable map around the store, with its marker. */
function embedUrl(lat: number, lon: number): string {
  const bbox = [lon - 0.008, lat - 0.005, lon + 0.008, lat + 0.005].map((n) => n.toFixed(4)).join(',');
  return `${STORE_MAP_ORIGIN}/export/embed.html?bbox=${bbox}&layer=mapnik&marker=${lat},${lon}`;
}

function StoreMap({ store }: { store: Store }) {
  const [shown, setShown] = useState(false);
  const at = store.mapUrl ? storeCoordinates(store.mapUrl) : null;
  if (!store.mapUrl) return null;
  if (!at) return <MapLink store={store} />;
  const online = typeof navigator === 'undefined' || navigator.onLine !== false;
  return (
    <div className="store-map">
      {shown && online ? (
        <iframe
          className="store-map__frame"
          title={`Map of ${store.name}`}
          src={embedUrl(at.lat, at.lon)}
          loading="lazy"
          referrerPolicy="no-referrer"
        />
      ) : shown ? (
        <p className="muted">The map needs an internet connection.</p>
      ) : (
        <button
          type="button"
          className="btn btn--outline btn--small"
          aria-label={`Show map: ${store.name}`}
          onClick={() => setShown(true)}
        >
          Show map
        </button>
      )}
      <MapLink store={store} />
    </div>
  );
}
