/**
 * The admin's two in-page dialogs (never `window.confirm`): a yes/no question
 * (`useConfirm`) and the sign-in-again form shown when the session ends
 * mid-edit. Both are native modal `<dialog>`s: focus moves in, Escape closes,
 * the page behind is inert.
 */
import { type FormEvent, type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { accountsApi } from '../../domain/accounts.contract.js';
import { adminMessages } from '../../domain/admin-messages.js';
import { messages } from '../../domain/messages.js';
import { saveSession, sessionLapsed } from '../../sw/session-writes.js';
import { ApiError, call } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useSession } from '../hooks/useSession.js';
import { type AskToSignIn, SignInProvider } from './connection.js';

interface Question {
  text: string;
  confirmLabel: string;
  keepLabel: string;
  resolve(answer: boolean): void;
}

/**
 * Asks in the dialog. `keepLabel` names the way out where "Cancel" would be read the wrong way
 * round (cancelling an order: "Keep the order", never a "Cancel" that keeps it).
 */
type Ask = (text: string, confirmLabel?: string, keepLabel?: string) => Promise<boolean>;
let askQuestion: Ask | null = null;

/** `await confirm('Are you sure...?')`: true when the admin confirms. */
export function useConfirm(): Ask {
  return useCallback((text: string, confirmLabel?: string, keepLabel?: string) => {
    if (!askQuestion) return Promise.resolve(false);
    return askQuestion(text, confirmLabel, keepLabel);
  }, []);
}

/** A native modal `<dialog>` shown while `open`: focus moves in, the page behind is inert. */
export function useModal(open: boolean) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      if (typeof d.showModal === 'function') d.showModal();
      else d.setAttribute('open', '');
    } else if (!open && d.open) {
      if (typeof d.close === 'function') d.close();
      else d.removeAttribute('open');
    }
  }, [open]);
  return ref;
}

export function ConfirmHost() {
  const [question, setQuestion] = useState<Question | null>(null);
  useEffect(() => {
    askQuestion = (text, confirmLabel = 'Yes', keepLabel = 'Cancel') =>
      new Promise<boolean>((resolve) => setQuestion({ text, confirmLabel, keepLabel, resolve }));
    return () => {
      askQuestion = null;
    };
  }, []);
  const ref = useModal(question !== null);
  const answer = (yes: boolean) => {
    question?.resolve(yes);
    setQuestion(null);
  };
  return (
    <dialog
      ref={ref}
      className="admin-dialog"
      aria-labelledby="admin-confirm-text"
      onCancel={(e) => {
        e.preventDefault();
        answer(false);
      }}
    >
      <p id="admin-confirm-text">{question?.text}</p>
      <div className="admin-dialog__actions">
        <button type="button" className="btn" onClick={() => answer(false)}>
          {question?.keepLabel ?? 'Cancel'}
        </button>
        <button type="button" className="btn btn--primary" onClick={() => answer(true)}>
          {question?.confirmLabel ?? 'Yes'}
        </button>
      </div>
    </dialog>
  );
}

interface Waiting {
  resolve(): void;
  reject(err: Error): void;
}

/** Provides `AskToSignIn` to `useAdminCall` and shows the sign-in form when it is asked. */
export function SignInAgain({ children }: { children: ReactNode }) {
  const [waiting, setWaiting] = useState<Waiting[]>([]);
  const ask: AskToSignIn = useCallback(
    () => new Promise<void>((resolve, reject) => setWaiting((w) => [...w, { resolve, reject }])),
    [],
  );
  const open = waiting.length > 0;
  const ref = useModal(open);
  const session = useSession();
  const notify = useNotify();
  const [email, setEmail] = useState(session?.email ?? '');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const giveUp = () => {
    for (const w of waiting) w.reject(new ApiError(adminMessages.sessionEnded, 401, null));
    setWaiting([]);
    void sessionLapsed(`${globalThis.location.pathname}${globalThis.location.search}`);
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      const res = await call(accountsApi.login, { body: { email, password }, token: null });
      if (!res.data) throw new ApiError(messages.somethingWentWrongTryAgain, 500, null);
      await saveSession(res.data);
      setPassword('');
      for (const w of waiting) w.resolve();
      setWaiting([]);
      notify(adminMessages.signedInAgain, 'success');
    } catch (err) {
      setError(
        err instanceof ApiError ? messages.loginFailed(err.message) : messages.somethingWentWrongTryAgain,
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <SignInProvider value={ask}>
      {children}
      <dialog
        ref={ref}
        className="admin-dialog"
        aria-labelledby="admin-signin-title"
        onCancel={(e) => {
          e.preventDefault();
          giveUp();
        }}
      >
        <form onSubmit={submit}>
          <h2 id="admin-signin-title">{adminMessages.signInAgain}</h2>
          <p>{adminMessages.sessionEnded}</p>
          <label className="admin-field">
            <span>Email</span>
            <input
              type="email"
              autoComplete="username"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              required
            />
          </label>
          <label className="admin-field">
            <span>Password</span>
            <input
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              required
            />
          </label>
          {error && (
            <p className="admin-error" role="alert">
              {error}
            </p>
          )}
          <div className="admin-dialog__actions">
            <button type="button" className="btn" onClick={giveUp}>
              Cancel
            </button>
            <button type="submit" className="btn btn--primary" disabled={busy}>
              {adminMessages.signInAgain}
            </button>
          </div>
        </form>
      </dialog>
    </SignInProvider>
  );
}
