/**
 * An order's online payment on the admin's order page: what was taken and what went back, each
 * refund with its state (a failed one in red and in words, with the provider's reason), and a
 * refund of part of it. The server judges the amount against what it knows now (another admin may
 * have refunded meanwhile): a too-large amount is its 422, shown under the field, and nothing else
 * changes. A refund made shows the payment as the server answered it.
 */
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import * as v from 'valibot';
import { adminMessages as m } from '../../domain/admin-messages.js';
import { formatIndiaDateTime } from '../../domain/india-time.js';
import { messages } from '../../domain/messages.js';
import { formatRupees } from '../../domain/money.js';
import { paymentsContract } from '../../domain/payments.contract.js';
import {
  type OrderPayment,
  paymentStateText,
  REASON_MAX,
  type Refund,
  RefundRequestSchema,
  refundMessages,
} from '../../domain/refunds.js';
import { ApiError, serverMessageOr } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useAdminCall } from './connection.js';
import { useLeaveGuardState } from './leave-guard.js';

export function RefundPanel({ orderID, payment }: { orderID: number; payment: OrderPayment }) {
  // The answer of a refund made here, until the order is loaded again.
  const [shown, setShown] = useState(payment);
  useEffect(() => setShown(payment), [payment]);
  return (
    <section className="admin-panel admin-no-print" aria-labelledby="online-payment-title">
      <h2 id="online-payment-title">Online payment</h2>
      <dl className="admin-dl" data-testid="online-payment">
        <dt>Provider</dt>
        <dd>{m.providerName(shown.provider)}</dd>
        <dt>Payment ID</dt>
        <dd>{shown.paymentID ?? '—'}</dd>
        <dt>Provider order</dt>
        <dd>{shown.providerOrderID}</dd>
        <dt>Payment status</dt>
        <dd data-testid="payment-state">{paymentStateText(shown)}</dd>
        <dt>Paid</dt>
        <dd data-testid="payment-paid">{formatRupees(shown.paid)}</dd>
        <dt>Refunded</dt>
        <dd data-testid="payment-refunded">{formatRupees(shown.refunded)}</dd>
        <dt>Refundable</dt>
        <dd data-testid="payment-refundable">{formatRupees(shown.refundable)}</dd>
      </dl>
      <h3 className="admin-refunds-title">Refunds</h3>
      {shown.refunds.length === 0 ? (
        <p className="muted">No refunds.</p>
      ) : (
        <RefundTable refunds={shown.refunds} />
      )}
      {shown.refundable > 0 ? (
        <RefundForm orderID={orderID} payment={shown} onRefunded={setShown} />
      ) : (
        <p className="muted">{m.refundableHint(0)}</p>
      )}
    </section>
  );
}

function RefundTable({ refunds }: { refunds: Refund[] }) {
  return (
    <section
      className="admin-table-wrap"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls is reached by keyboard this way.
      tabIndex={0}
      aria-label="Refunds table"
    >
      <table className="admin-table admin-table--cards admin-refunds">
        <thead>
          <tr>
            <th scope="col">Amount</th>
            <th scope="col">Kind</th>
            <th scope="col">Reason</th>
            <th scope="col">By</th>
            <th scope="col">When</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {refunds.map((r) => (
            <tr
              key={r.refundID}
              className={r.status === 'failed' ? 'admin-refund--failed' : undefined}
              data-testid={`refund-${r.refundID}`}
            >
              <td data-label="Amount">{formatRupees(r.amount)}</td>
              <td data-label="Kind">{m.refundKind[r.kind]}</td>
              <td data-label="Reason">{r.reason}</td>
              <td data-label="By">{r.by}</td>
              <td data-label="When">{formatIndiaDateTime(r.createdAt)}</td>
              <td data-label="State">
                <RefundState refund={r} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function RefundState({ refund: r }: { refund: Refund }) {
  if (r.status === 'failed')
    return (
      <span className="admin-refund__failed">
        <strong>{m.refundState.failed}:</strong> {m.refundFailedReason(r.failureReason)}
      </span>
    );
  if (r.status === 'processed')
    return (
      <span>
        {m.refundState.processed}
        {r.processedAt ? <span className="muted"> {formatIndiaDateTime(r.processedAt)}</span> : null}
      </span>
    );
  return <span>{m.refundState.pending}</span>;
}

/**
 * The field a refusal is about: a 422 is the amount (too large), unless the envelope names the
 * reason (a refused body names its field); anything else (a refund still in progress) is the form's.
 */
function refusedField(err: ApiError): 'amount' | 'reason' | null {
  const named = (err.envelope?.data as { field?: unknown } | null | undefined)?.field;
  if (named === 'reason') return 'reason';
  if (named === 'amount' || err.status === 422) return 'amount';
  return null;
}

type Problems = Partial<Record<'amount' | 'reason' | 'form', string>>;

function RefundForm({
  orderID,
  payment,
  onRefunded,
}: {
  orderID: number;
  payment: OrderPayment;
  onRefunded(p: OrderPayment): void;
}) {
  const id = useId();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const amountBox = useRef<HTMLInputElement>(null);
  const reasonBox = useRef<HTMLInputElement>(null);
  const adminCall = useAdminCall();
  const notify = useNotify();
  useLeaveGuardState(amount !== '' || reason.trim() !== '');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // The schema the server runs; an empty box is not ₹0.
    const parsed = v.safeParse(RefundRequestSchema, {
      amount: amount.trim() === '' ? Number.NaN : Number(amount),
      reason,
    });
    if (!parsed.success) {
      const flat = v.flatten<typeof RefundRequestSchema>(parsed.issues).nested ?? {};
      setProblems({
        ...(flat.amount?.[0] ? { amount: flat.amount[0] } : {}),
        ...(flat.reason?.[0] ? { reason: flat.reason[0] } : {}),
      });
      (flat.amount ? amountBox : reasonBox).current?.focus();
      return;
    }
    setProblems({});
    setBusy(true);
    try {
      const answer = await adminCall(paymentsContract.refund, {
        params: { id: orderID },
        body: parsed.output,
      });
      if (answer.data) onRefunded(answer.data);
      notify(refundMessages.refundStarted(parsed.output.amount), 'success');
      setAmount('');
      setReason('');
    } catch (err) {
      const text = serverMessageOr(err, messages.somethingWentWrongTryAgain);
      // Too large is about the amount: said under it. Anything else (a refund still in progress) under the form.
      const field = err instanceof ApiError ? refusedField(err) : null;
      setProblems(field ? { [field]: text } : { form: text });
      if (field) (field === 'reason' ? reasonBox : amountBox).current?.focus();
    } finally {
      setBusy(false);
    }
  };

  const described = (field: 'amount' | 'reason', extra?: string) => {
    const ids = [extra, problems[field] ? `${id}-${field}-problem` : undefined].filter(Boolean).join(' ');
    return {
      ...(problems[field] ? { 'aria-invalid': true as const } : {}),
      ...(ids ? { 'aria-describedby': ids } : {}),
    };
  };

  return (
    <form
      className="admin-form admin-refund-form"
      onSubmit={submit}
      noValidate
      aria-labelledby={`${id}-title`}
    >
      <h3 id={`${id}-title`}>Refund part of this payment</h3>
      <div className="admin-row">
        <div className="admin-field">
          <label htmlFor={`${id}-amount`}>
            <span>Amount (₹)</span>
          </label>
          <input
            ref={amountBox}
            id={`${id}-amount`}
            type="number"
            inputMode="numeric"
            min={1}
            max={payment.refundable}
            step={1}
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            {...described('amount', `${id}-amount-hint`)}
          />
          <p id={`${id}-amount-hint`} className="muted admin-field__hint">
            {m.refundableHint(payment.refundable)}
          </p>
          {problems.amount && (
            <p id={`${id}-amount-problem`} className="admin-error" data-testid="refund-amount-problem">
              {problems.amount}
            </p>
          )}
        </div>
        <div className="admin-field">
          <label htmlFor={`${id}-reason`}>
            <span>Reason</span>
          </label>
          <input
            ref={reasonBox}
            id={`${id}-reason`}
            type="text"
            maxLength={REASON_MAX}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            {...described('reason')}
          />
          {problems.reason && (
            <p id={`${id}-reason-problem`} className="admin-error">
              {problems.reason}
            </p>
          )}
        </div>
      </div>
      {problems.form && (
        <p className="admin-error" role="alert">
          {problems.form}
        </p>
      )}
      <button type="submit" className="btn btn--primary" disabled={busy}>
        {busy ? 'Refunding…' : 'Refund'}
      </button>
    </form>
  );
}
