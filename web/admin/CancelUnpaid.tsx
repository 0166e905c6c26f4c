/**
 * An account holding delivery places it will not pay for: its unpaid open orders cancelled in one
 * step, after a confirm that names how many. Paid orders are not touched. Offered only where it
 * helps, when the account holds more than one unpaid order for one date (`offersCancelUnpaid`),
 * on the page of an unpaid order and on the orders list searched by the account's email; a
 * secondary action, never the page's red button.
 */
import { useState } from 'react';
import { adminApi } from '../../domain/admin.contract.js';
import type { SearchedAccount } from '../../domain/admin-answers.js';
import { offersCancelUnpaid } from '../../domain/admin-edits.js';
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
  if (!offersCancelUnpaid(account)) return null;
  const cancel = async () => {
    if (
      !(await confirm(
        adminMessages.cancelUnpaidConfirm(count, account.email),
        adminMessages.cancelUnpaidConfirmLabel(count),
        adminMessages.cancelUnpaidKeepLabel(count),
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
      <span>
        {adminMessages.unpaidOrders(count)} on this account,{' '}
        {adminMessages.unpaidOnOneDate(account.unpaidOnOneDate, count)}.
      </span>{' '}
      <button type="button" className="btn btn--small" disabled={busy} onClick={() => void cancel()}>
        {adminMessages.cancelUnpaidButton(count)}
      </button>
    </p>
  );
}
