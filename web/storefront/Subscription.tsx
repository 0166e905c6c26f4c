import { useCallback, useEffect, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import * as v from 'valibot';
import { newsletterApi } from '../../domain/newsletter.contract.js';
import { ConfirmTokenSchema, newsletterMessages, UnsubscribeTokenSchema } from '../../domain/newsletter.js';
import { ApiError, call } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useTitle } from '../hooks/useTitle.js';
import NotFound from './NotFound.js';

/**
 * Where the mailing list's mails lead (api/newsletter/README.md): `/newsletter/confirm#token`
 * confirms a subscription as it opens, `/newsletter/unsubscribe#token` asks before it takes the
 * address off the list. The token is in the fragment, which the browser never sends to a server.
 */
export default function Subscription() {
  const { action } = useParams();
  if (action === 'confirm') return <Confirm />;
  if (action === 'unsubscribe') return <Unsubscribe />;
  return <NotFound />;
}

/** `offline`: not done, and worth another try (no connection, or the server failed). */
type Result = { kind: 'done' | 'refused' | 'offline'; title: string; text: string };
const LINK_FAILS = newsletterMessages.linkFails;
const NOT_CONFIRMED = newsletterMessages.notConfirmed;

/**
 * What a failed call means for the shopper: the server's words when it refused (the link), else
 * that it did not happen and may be tried again (no connection, or the server failed).
 */
function failure(err: unknown, again: { title: string; offline: string }): Result {
  if (err instanceof ApiError && err.status > 0 && err.status < 500)
    return { kind: 'refused', title: LINK_FAILS, text: err.message };
  const offline = err instanceof ApiError && err.status === 0;
  return { kind: 'offline', title: again.title, text: offline ? again.offline : newsletterMessages.failed };
}

/**
 * One confirmation per token and page: React's development mode runs an effect twice, and the
 * second call would answer "already subscribed" to the shopper who just subscribed.
 */
const confirming = new Map<string, Promise<Result>>();

function confirmOnce(token: string): Promise<Result> {
  let pending = confirming.get(token);
  if (!pending) {
    pending = call(newsletterApi.confirm, { body: { token }, token: null }).then(
      (answer): Result => ({
        kind: 'done',
        title: newsletterMessages.subscribed,
        text: answer.data?.alreadySubscribed ? answer.sys_message : newsletterMessages.subscribedText,
      }),
      (err: unknown) => {
        // A try that did not reach the server may be made again.
        confirming.delete(token);
        return failure(err, { title: NOT_CONFIRMED, offline: newsletterMessages.confirmNeedsConnection });
      },
    );
    confirming.set(token, pending);
  }
  return pending;
}

function Confirm() {
  useTitle('Confirm your subscription');
  const token = useLocation().hash.slice(1);
  const notify = useNotify();
  const [result, setResult] = useState<Result | null>(null);

  const check = useCallback(
    async (live: () => boolean) => {
      setResult(null);
      const r: Result = !v.is(ConfirmTokenSchema, token)
        ? { kind: 'refused', title: LINK_FAILS, text: newsletterMessages.linkIncomplete }
        : typeof navigator !== 'undefined' && navigator.onLine === false
          ? { kind: 'offline', title: NOT_CONFIRMED, text: newsletterMessages.confirmNeedsConnection }
          : await confirmOnce(token);
      if (!live()) return;
      setResult(r);
      notify(r.kind === 'done' ? r.title : r.text, r.kind === 'done' ? 'success' : 'error');
    },
    [token, notify],
  );
  useEffect(() => {
    let live = true;
    void check(() => live);
    return () => {
      live = false;
    };
  }, [check]);

  return (
    <div className="page subscription">
      <h1>{result ? result.title : 'Confirm your subscription'}</h1>
      <p>{result ? result.text : newsletterMessages.confirming}</p>
      {result?.kind === 'offline' && (
        <p>
          <button type="button" className="btn btn--primary" onClick={() => void check(() => true)}>
            Try again
          </button>
        </p>
      )}
      {result?.kind === 'refused' && <p>You can subscribe again at the foot of this page.</p>}
      <p>
        <Link to="/home">Go to the home page</Link>
      </p>
    </div>
  );
}

function Unsubscribe() {
  useTitle('Unsubscribe');
  const token = useLocation().hash.slice(1);
  const notify = useNotify();
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const complete = v.is(UnsubscribeTokenSchema, token);

  const unsubscribe = useCallback(async () => {
    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      setResult({
        kind: 'offline',
        title: 'Unsubscribe',
        text: newsletterMessages.unsubscribeNeedsConnection,
      });
      notify(newsletterMessages.unsubscribeNeedsConnection, 'error');
      return;
    }
    setSending(true);
    try {
      const answer = await call(newsletterApi.unsubscribe, { query: { token }, token: null });
      setResult({
        kind: 'done',
        title: newsletterMessages.unsubscribedTitle,
        text: answer.data?.wasSubscribed
          ? newsletterMessages.unsubscribedText
          : newsletterMessages.alreadyUnsubscribed,
      });
      notify(answer.sys_message, 'success');
    } catch (err) {
      // Not done, the question stays under its own title with the button to try again.
      const r = failure(err, {
        title: 'Unsubscribe',
        offline: newsletterMessages.unsubscribeNeedsConnection,
      });
      setResult(r);
      notify(r.text, 'error');
    } finally {
      setSending(false);
    }
  }, [token, notify]);

  const asking = complete && (result === null || result.kind === 'offline');
  return (
    <div className="page subscription">
      <h1>{result?.title ?? (complete ? 'Unsubscribe' : LINK_FAILS)}</h1>
      {!complete && <p>{newsletterMessages.linkIncomplete}</p>}
      {result && <p>{result.text}</p>}
      {asking && (
        <>
          {result === null && <p>{newsletterMessages.unsubscribeAsk}</p>}
          <p>
            <button
              type="button"
              className="btn btn--primary"
              onClick={() => void unsubscribe()}
              disabled={sending}
            >
              {sending ? 'Unsubscribing…' : 'Unsubscribe'}
            </button>
          </p>
        </>
      )}
      <p>
        <Link to="/home">Go to the home page</Link>
      </p>
    </div>
  );
}
