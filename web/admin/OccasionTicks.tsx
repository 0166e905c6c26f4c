/** The product form's occasions: one tick per occasion of the shop's list (domain/occasions.ts). */
import { inListOrder, OCCASIONS, type Occasion } from '../../domain/occasions.js';

export function OccasionTicks({
  value,
  onChange,
}: {
  value: readonly Occasion[];
  onChange: (next: Occasion[]) => void;
}) {
  return (
    <fieldset className="admin-panel">
      <legend>Occasions</legend>
      <p className="muted admin-help" id="pf-occasions-help">
        What the product is for: shoppers find it by these words.
      </p>
      <div className="admin-checks" aria-describedby="pf-occasions-help">
        {OCCASIONS.map((o) => (
          <label key={o}>
            <input
              type="checkbox"
              checked={value.includes(o)}
              onChange={(e) =>
                onChange(e.target.checked ? inListOrder([...value, o]) : value.filter((x) => x !== o))
              }
            />
            <span>{o}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
