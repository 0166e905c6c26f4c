/** Says that what was typed is kept on the phone, with Clear to forget it (`checkout-draft.ts`). */
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { useNotify } from '../hooks/useAlerts.js';

export function DraftNote({ onClear }: { onClear: () => Promise<void> }) {
  const notify = useNotify();
  return (
    <p className="co-draft">
      {t.draftKept}{' '}
      <button
        type="button"
        className="btn btn--link"
        onClick={() => void onClear().then(() => notify(t.draftCleared, 'info'))}
      >
        {t.draftClear}
      </button>
    </p>
  );
}
