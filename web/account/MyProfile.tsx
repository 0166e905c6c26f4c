/**
 * /my-profile (spec sections 2, 4, 8; DESIGN departure 6): Name, Email, Phone,
 * a masked Password and the address, shown disabled, with an Edit button that
 * starts the spec's edit flow: Save sends PUT /UpdateUserProfile and reloads
 * the profile, Cancel restores what was shown. The email is never editable
 * (the server refuses a change). A new password needs the current one, which
 * the server checks.
 */
import { type FormEvent, lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { accountMessages } from '../../domain/account-messages.js';
import { accountsApi } from '../../domain/accounts.contract.js';
import { ProfileFormSchema, type UserProfile } from '../../domain/accounts.js';
import { messages } from '../../domain/messages.js';
import { updateSessionPhone } from '../../sw/session-writes.js';
import { ApiError, call } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useSession } from '../hooks/useSession.js';
import { useTitle } from '../hooks/useTitle.js';
import { OrderUpdatesSwitch } from '../push/OrderUpdatesSwitch.js';
import { Field, useForm, useSending } from './form.js';
import './account.css';

/** Lazy for the first screen's sake (see web/account/recipients.ts). */
const SavedRecipients = lazy(() => import('./SavedRecipients.js'));

type Values = {
  name: string;
  phone: string;
  address: string;
  password: string;
  confirmPassword: string;
  currentPassword: string;
};
const MASK = '••••••••';

function valuesOf(p: UserProfile | null): Values {
  return {
    name: p?.name ?? '',
    phone: p?.phone ?? '',
    address: p?.address ?? '',
    password: '',
    confirmPassword: '',
    currentPassword: '',
  };
}

/** The screen's first call is the profile itself: the login guard need not ask the server the same first. */
export const asksServer = true;

export default function MyProfile() {
  useTitle('My Profile');
  const session = useSession();
  const notify = useNotify();
  const [profile, setProfile] = useState<UserProfile | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const { busy, send } = useSending();
  const form = useForm(ProfileFormSchema, valuesOf(null));
  const { reset } = form;

  const load = useCallback(async () => {
    try {
      const res = await call(accountsApi.getProfile);
      if (!res.isSuccess || !res.data)
        throw new ApiError(res.sys_message || messages.profileFetchFailed, 200, res);
      setProfile(res.data);
      setProblem(null);
      return res.data;
    } catch (err) {
      if (err instanceof ApiError && err.sessionEnded) return null;
      const text =
        err instanceof ApiError && err.offline
          ? accountMessages.profileOffline
          : err instanceof ApiError && err.envelope
            ? err.message
            : messages.profileFetchFailed;
      setProblem(text);
      notify(text, 'error');
      return null;
    }
  }, [notify]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: load once per visit; `reset` only sets state.
  useEffect(() => {
    void load().then((p) => {
      if (p) reset(valuesOf(p));
    });
  }, []);

  const cancel = () => {
    reset(valuesOf(profile));
    setEditing(false);
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = form.check();
    if (!parsed) {
      notify(messages.formInvalid, 'error');
      return;
    }
    await send(
      async () => {
        const { confirmPassword: _, password, currentPassword, ...rest } = parsed;
        const body = password ? { ...rest, password, currentPassword } : rest;
        const res = await call(accountsApi.updateProfile, { body });
        if (res.data) await updateSessionPhone(res.data.phone);
        notify(res.sys_message || messages.profileUpdated, 'success');
        // The spec's "saved (reload)": what the server now holds is what the form shows.
        const fresh = await load();
        reset(valuesOf(fresh ?? res.data ?? profile));
        setEditing(false);
      },
      // An ended session is already being answered (to /login and back); say nothing more.
      (err) =>
        err instanceof ApiError && err.sessionEnded
          ? null
          : err instanceof ApiError && err.envelope
            ? err.message
            : messages.profileUpdateFailed,
    );
  };

  const changingPassword = form.values.password !== '';
  return (
    <div className="page account">
      <h1>My Profile</h1>
      {problem && (
        <p className="account__banner" data-testid="profile-banner">
          {problem}
        </p>
      )}
      <form className="form account__form" onSubmit={save} noValidate>
        <Field form={form} name="name" label="Name" autoComplete="name" disabled={!editing} />
        <div className="field account-field">
          <label htmlFor="profile-email">Email</label>
          <input
            id="profile-email"
            type="email"
            value={profile?.email ?? session?.email ?? ''}
            autoComplete="username"
            disabled
            readOnly
          />
        </div>
        <Field
          form={form}
          name="phone"
          label="Phone"
          type="tel"
          inputMode="tel"
          autoComplete="tel-national"
          hint={editing ? accountMessages.phoneHint : undefined}
          disabled={!editing}
        />
        <Field form={form} name="address" label="Address" autoComplete="street-address" disabled={!editing} />
        {editing ? (
          <fieldset className="account__fieldset">
            <legend>Change password (optional)</legend>
            <Field
              form={form}
              name="password"
              label="New password"
              reveal
              autoComplete="new-password"
              hint="Leave empty to keep your password."
            />
            {changingPassword && (
              <>
                <Field
                  form={form}
                  name="confirmPassword"
                  label="Confirm new password"
                  reveal
                  autoComplete="new-password"
                />
                <Field
                  form={form}
                  name="currentPassword"
                  label="Current password"
                  reveal
                  autoComplete="current-password"
                />
              </>
            )}
          </fieldset>
        ) : (
          <div className="field account-field">
            <label htmlFor="profile-password">Password</label>
            <input id="profile-password" type="password" value={MASK} disabled readOnly autoComplete="off" />
          </div>
        )}
        <div className="account__actions">
          {editing ? (
            <>
              <button key="save" type="submit" className="btn btn--primary" disabled={busy}>
                Save
              </button>
              <button
                key="cancel"
                type="button"
                className="btn btn--outline"
                onClick={cancel}
                disabled={busy}
              >
                Cancel
              </button>
            </>
          ) : (
            <button
              type="button"
              className="btn btn--primary"
              key="edit"
              onClick={(e) => {
                // The Save button renders in this place within the same click: no submit may follow.
                e.preventDefault();
                setEditing(true);
              }}
              disabled={!profile}
            >
              Edit
            </button>
          )}
        </div>
      </form>
      {session ? (
        <Suspense fallback={null}>
          <SavedRecipients userId={session.userId} />
        </Suspense>
      ) : null}
      <OrderUpdatesSwitch />
    </div>
  );
}
