import type { ReactNode } from 'react';

/**
 * The footer's payment and social marks, drawn inline. As CSS background pictures each was an SVG
 * document the browser had to build, nine of them in one task as a short page's footer appeared
 * (about 115 ms on Lighthouse's phone, the storefront bench's trace); inline they are elements of
 * the page. The footer is a lazy chunk, so their bytes are not the first screen's.
 */
const CARD = <rect x=".5" y=".5" width="55" height="35" rx="5" fill="#fff" stroke="#d8cfd2" />;

const word = (x: number, y: number, size: number, fill: string, text: string) => (
  <text
    x={x}
    y={y}
    fontFamily="Arial,Helvetica,sans-serif"
    fontWeight="700"
    fontSize={size}
    fontStyle="italic"
    fill={fill}
    textAnchor="middle"
  >
    {text}
  </text>
);

const PAYMENT: Record<string, ReactNode> = {
  upi: (
    <>
      {word(22, 24, 15, '#3b3b3b', 'UPI')}
      <path d="M38 10l6 8-6 8z" fill="#f47b20" />
      <path d="M43 10l6 8-6 8z" fill="#1e8e3e" />
    </>
  ),
  visa: (
    <>
      {word(28, 24, 15, '#1a1f71', 'VISA')}
      <path d="M10 27h36" stroke="#f7b600" strokeWidth="2" />
    </>
  ),
  mastercard: (
    <>
      <circle cx="23" cy="18" r="10" fill="#eb001b" />
      <circle cx="33" cy="18" r="10" fill="#f79e1b" />
      <path d="M28 9.3a10 10 0 0 1 0 17.4a10 10 0 0 1 0-17.4z" fill="#ff5f00" />
    </>
  ),
  rupay: (
    <>
      {word(25, 23, 12, '#1b3f8b', 'RuPay')}
      <path d="M43 11l5 7-5 7z" fill="#f47b20" />
      <path d="M47 11l5 7-5 7z" fill="#1e8e3e" />
    </>
  ),
  netbanking: (
    <>
      <path d="M28 6l13 6H15z" fill="#3d5a80" />
      <path
        d="M17 14h22v2H17zM18 17h3v9h-3zM24.5 17h3v9h-3zM31 17h3v9h-3zM37 17h1v9h-1zM15 27h26v3H15z"
        fill="#3d5a80"
      />
    </>
  ),
  cod: (
    <>
      <rect x="10" y="9" width="36" height="18" rx="2" fill="#d8f3dc" stroke="#2d6a4f" strokeWidth="1.5" />
      <circle cx="28" cy="18" r="6" fill="#2d6a4f" />
      <text
        x="28"
        y="21.5"
        fontFamily="Arial,Helvetica,sans-serif"
        fontWeight="700"
        fontSize="9"
        fill="#fff"
        textAnchor="middle"
      >
        ₹
      </text>
    </>
  ),
};

const SOCIAL: Record<string, ReactNode> = {
  instagram: (
    <>
      <rect x="3" y="3" width="18" height="18" rx="5" fill="none" stroke="#ffd6e0" strokeWidth="2" />
      <circle cx="12" cy="12" r="4" fill="none" stroke="#ffd6e0" strokeWidth="2" />
      <circle cx="17.3" cy="6.7" r="1.3" fill="#ffd6e0" />
    </>
  ),
  facebook: (
    <>
      <circle cx="12" cy="12" r="10" fill="#ffd6e0" />
      <path
        d="M13.2 21v-7h2.4l.4-2.8h-2.8V9.5c0-.8.3-1.4 1.4-1.4H16V5.6a19 19 0 0 0-2.2-.1c-2.2 0-3.6 1.3-3.6 3.8v1.9H7.8V14h2.4v7z"
        fill="#2a1f23"
      />
    </>
  ),
  youtube: (
    <>
      <rect x="2" y="5" width="20" height="14" rx="4" fill="#ffd6e0" />
      <path d="M10 8.8v6.4l5.5-3.2z" fill="#2a1f23" />
    </>
  ),
};

/** A payment method's mark, named for screen readers. */
export function PaymentMark({ id, name }: { id: string; name: string }) {
  return (
    <svg className="pay" viewBox="0 0 56 36" width="56" height="36" role="img" aria-label={name}>
      {CARD}
      {PAYMENT[id]}
    </svg>
  );
}

/** A social profile's icon: decoration, the link around it says where it goes. */
export function SocialMark({ id }: { id: string }) {
  return (
    <svg
      className="social__icon"
      viewBox="0 0 24 24"
      width="26"
      height="26"
      aria-hidden="true"
      focusable="false"
    >
      {SOCIAL[id]}
    </svg>
  );
}
