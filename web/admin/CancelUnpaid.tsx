/**
 * An account holding delivery places it will not pay for: its unpaid open orders cancelled in one
 * step, after a confirm that names how many. Paid orders are not touched. Shown on an order's page
 * and on the orders list searched by the account's email.
 */
import { useState } from 'react';
import { adminApi } from '../../domain/admin.contract.js';
import type { SearchedAccount } from '../../domain/admin-answers.js';
import { adminMessages } from '../../domain/admin-messages.js';
import { messages } from '../../domain/messages.js';
import { serverMessageOr } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useAdminCall } from './connection.js';
import { useConfirm } from './dialogs.js';

export function CancelUnpaid({ account, onCancelled }: { account: SearchedAccount; onCancelled(): void }) {
  const [busy, setBusy] = useState(false);
  const confirm = useConfirm();
  const notify = useNotify();
  const adminCall = useAdminCall();
  const count = account.unpaidOpen;
  if (count === 0) return null;
  const cancel = async () => {
    if (
      !(await confirm(
        adminMessages.cancelUnpaidConfirm(count, account.email),
        adminMessages.cancelUnpaidConfirmLabel(count),
      ))
    )
      return;
    setBusy(true);
    try {
      const answer = await adminCall(adminApi.cancelUnpaidOrders, { body: { userID: account.userID } });
      notify(adminMessages.unpaidCancelled(answer.data?.cancelled ?? 0), 'success');
      onCancelled();
    } catch (err) {
      notify(serverMessageOr(err, messages.somethingWentWrongDot), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <p>
      <span>{adminMessages.unpaidOrders(count)} on this account.</span>{' '}
      <button type="button" className="btn admin-danger" disabled={busy} onClick={() => void cancel()}>
        {adminMessages.cancelUnpaidButton(count)}
      </button>
    </p>
  );
}
