import { useEffect, useState } from 'react';
import { serverMessageOr } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { deleteRecipient, refreshRecipients, useSavedRecipients } from './recipients.js';

/**
 * My Profile's saved recipients: the people this account sends gifts to, saved from
 * the checkout ("Save this recipient"), listed from the device (so they show offline too) and
 * refreshed from the server on every visit. Deleting needs the network: the server's list is the
 * one every device gets.
 */
export default function SavedRecipients({ userId }: { userId: number }) {
  const rows = useSavedRecipients(userId);
  const notify = useNotify();
  const [busy, setBusy] = useState<number | null>(null);
  useEffect(() => {
    void refreshRecipients(userId);
  }, [userId]);
  const remove = async (id: number, name: string) => {
    setBusy(id);
    try {
      await deleteRecipient(userId, id);
      notify(`${name} was removed from your saved recipients.`, 'success');
    } catch (err) {
      notify(
        serverMessageOr(err, 'Removing a saved recipient needs a connection. Please try again online.'),
        'error',
      );
    } finally {
      setBusy(null);
    }
  };
  return (
    <section className="account__recipients" aria-labelledby="recipients-title">
      <h2 id="recipients-title">Saved recipients</h2>
      {rows === undefined ? null : rows.length === 0 ? (
        <p className="muted">
          None yet. At checkout, choose "Send to someone else" and "Save this recipient" to keep one here.
        </p>
      ) : (
        <ul className="account__recipient-list">
          {rows.map((r) => (
            <li key={r.id} className="account__recipient">
              <span>
                <strong>{r.name}</strong> · {r.phone}
                <br />
                <span className="muted">
                  {r.address}, {r.city}, {r.state} {r.pincode}
                </span>
              </span>
              <button
                type="button"
                className="btn btn--outline btn--small"
                disabled={busy === r.id}
                aria-label={`Delete ${r.name} from saved recipients`}
                onClick={() => void remove(r.id, r.name)}
              >
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
