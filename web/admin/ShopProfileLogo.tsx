/**
 * The shop profile's logo: a picture uploaded at once through the image pipeline (the answer is the
 * draft's logo, a preview shows it) and the profile's only once the profile is saved; or none.
 */
import { useRef, useState } from 'react';
import { shopProfileApi } from '../../domain/admin-profile.contract.js';
import { messages } from '../../domain/messages.js';
import { type Logo, logoUrl } from '../../domain/shop-profile.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useAdminCall } from './connection.js';
import { fieldId, logoRequest, profileRefusal, profileTexts as t } from './profile-forms.js';

export function ShopProfileLogo({
  formId,
  logo,
  unsaved,
  shopName,
  problem,
  onLogo,
  onProblem,
}: {
  formId: string;
  logo: Logo;
  /** The draft's logo is not the saved profile's. */
  unsaved: boolean;
  shopName: string;
  problem: string | undefined;
  onLogo(logo: Logo): void;
  onProblem(message: string | null): void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const adminCall = useAdminCall();
  const notify = useNotify();
  const id = fieldId(formId, 'logo');
  const described = [`${id}-help`, problem ? `${id}-problem` : ''].filter(Boolean).join(' ');

  const upload = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    onProblem(null);
    try {
      const res = await adminCall(shopProfileApi.uploadLogo, { body: logoRequest(file) });
      onLogo(res.data);
      notify(res.sys_message, 'success');
    } catch (err) {
      onProblem(profileRefusal(err, 0, messages.somethingWentWrongDot).message);
      input.current?.focus();
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <div className="admin-field admin-profile__logo">
      <span id={`${id}-label`}>{t.logo}</span>
      <div className="admin-profile__logo-row">
        {logo ? (
          <img
            className="admin-profile__logo-preview"
            src={logoUrl(logo, 320)}
            alt={t.logoPreview(shopName)}
            width={96}
            height={96}
          />
        ) : (
          <p className="muted admin-profile__logo-none">{t.noLogo}</p>
        )}
        <div className="admin-profile__logo-actions">
          <label htmlFor={id}>{t.chooseLogo}</label>
          <input
            id={id}
            ref={input}
            type="file"
            accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
            disabled={busy}
            aria-describedby={described}
            aria-invalid={problem ? true : undefined}
            onChange={(e) => void upload(e.target.files?.[0])}
          />
          {logo && (
            <button type="button" className="btn admin-danger" disabled={busy} onClick={() => onLogo(null)}>
              {t.removeLogo}
            </button>
          )}
        </div>
      </div>
      {busy && <p role="status">{t.uploading}</p>}
      {unsaved && logo && !busy && <p className="admin-field__hint">{t.logoUnsaved}</p>}
      <p id={`${id}-help`} className="muted admin-help">
        {t.logoHelp}
      </p>
      {problem && (
        <p id={`${id}-problem`} className="admin-error">
          {problem}
        </p>
      )}
    </div>
  );
}
