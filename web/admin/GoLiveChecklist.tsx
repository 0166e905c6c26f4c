/**
 * The dashboard's "Make it yours" card (api/golive/README.md): the go-live checklist, each item a
 * link to the screen it is done on with its tick in words, and the one step that removes the demo
 * catalogue, after a confirmation saying what goes and what stays. Shown while demo data remains
 * or an item is not done; after a removal it says what was removed.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { goLiveApi } from '../../domain/go-live.contract.js';
import { demoLeftAny, demoParts, type GoLive, goLiveMessages } from '../../domain/go-live.js';
import { serverMessageOr } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useAdminCall, useAdminQuery } from './connection.js';
import { useConfirm } from './dialogs.js';
import './go-live.css';

export default function GoLiveChecklist({ onRemoved }: { onRemoved?(): void }) {
  const { data, reload } = useAdminQuery(goLiveApi.get, {}, 'go-live');
  const [removedText, setRemovedText] = useState('');
  if (!data || (data.ready && !removedText)) return null;
  return (
    <section className="admin-panel golive" aria-labelledby="golive-title" data-testid="go-live">
      <h2 id="golive-title">Make it yours</h2>
      {data.ready ? null : <Checklist data={data} />}
      <DemoCatalogue
        data={data}
        removedText={removedText}
        onRemoved={(text) => {
          setRemovedText(text);
          reload();
          onRemoved?.();
        }}
      />
    </section>
  );
}

function Checklist({ data }: { data: GoLive }) {
  const done = data.items.filter((i) => i.done).length;
  return (
    <>
      <p className="muted" id="golive-progress">
        Before the shop goes live, make it yours: {done} of {data.items.length} done.
      </p>
      <ul className="golive__items" aria-describedby="golive-progress">
        {data.items.map((item) => (
          <li key={item.id} className={item.done ? 'golive__item golive__item--done' : 'golive__item'}>
            <span className="golive__tick" aria-hidden="true">
              {item.done ? '✓' : ''}
            </span>
            <span className="golive__text">
              <Link to={item.path} data-testid={`go-live-${item.id}`}>
                {item.label}
              </Link>{' '}
              <span className={item.done ? 'golive__state golive__state--done' : 'golive__state'}>
                {item.done ? 'Done' : 'To do'}
              </span>
              {item.hint && <span className="golive__hint muted">{item.hint}</span>}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

function DemoCatalogue({
  data,
  removedText,
  onRemoved,
}: {
  data: GoLive;
  removedText: string;
  onRemoved(text: string): void;
}) {
  const adminCall = useAdminCall();
  const confirm = useConfirm();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const left = demoLeftAny(data.demo);

  const remove = async () => {
    const yes = await confirm(
      goLiveMessages.confirmRemoval(data.demo),
      'Remove the demo catalogue',
      'Keep it for now',
    );
    if (!yes) return;
    setBusy(true);
    try {
      const res = await adminCall(goLiveApi.removeDemo);
      const text = res.sys_message || (res.data ? goLiveMessages.removed(res.data) : '');
      notify(text, 'success');
      onRemoved(text);
    } catch (err) {
      notify(serverMessageOr(err, 'The demo catalogue could not be removed. Try again.'), 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="golive__demo">
      {removedText && (
        // Said once to a screen reader, by the notice; this line stays for whoever looks later.
        <p data-testid="go-live-removed">{removedText}</p>
      )}
      {left && (
        <>
          <p data-testid="go-live-demo">
            The demo catalogue is still in the shop: {demoParts(data.demo)}. Removing it keeps every order and
            the products and categories you added or changed.
          </p>
          <button
            type="button"
            className="btn"
            onClick={() => void remove()}
            disabled={busy}
            aria-busy={busy}
          >
            {busy ? 'Removing…' : 'Remove the demo catalogue'}
          </button>
        </>
      )}
    </div>
  );
}
